"""Every scene geotruth ships (data/ and valid fixtures) validates against docs/scene.schema.json,
and the schema rejects what the reader rejects for shape reasons (unknown keys, wrong types)."""
import json
import sys

import jsonschema

root = sys.argv[1]
schema = json.load(open(f"{root}/docs/scene.schema.json"))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
passed = failed = 0


def check(name, ok):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", name)


for n, line in enumerate(open(f"{root}/data/scenes.jsonl"), 1):
    errors = list(validator.iter_errors(json.loads(line)))
    check(f"data/scenes.jsonl:{n} {[e.message for e in errors]}", not errors)

for bad in [{"id": "s", "colour": "red"},
            {"points": []},
            {"id": "s", "points": [{"id": "A", "at": [1]}]},
            {"id": "s", "shapes": [{"id": "e", "type": "ellipse", "center": [0, 0]}]},
            {"id": "s", "points": [{"id": "A", "at": ["1/0", 0]}]},
            {"id": "s", "relations": [{"type": "kissing", "between": ["a", "b"]}]}]:
    check(f"rejects {json.dumps(bad)}", not validator.is_valid(bad))

print(f"schema: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
