// Importers: other datasets' annotation formats → native scenes.
#pragma once

#include <geotruth/input.hpp>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace geotruth {

enum class SourceFormat {
  native,      ///< JSONL of native scenes (docs/format.md)
  geometry3k,  ///< diagram_logic_forms_annot.json (object keyed by problem id) or one logic_form.json
  pgdp,        ///< PGDP5K annotations: object keyed by image name with geos and relations
  linelist,    ///< text figures: one row per drawn line listing its points in order
  gepbench,    ///< GePBench rules.json plus its VQA JSONL files, read together
  ai2d,        ///< AI2D annotations (<id>.png.json), a directory of them, or a JSONL of them
  visonlyqa,   ///< VisOnlyQA item files (JSONL), or a split's folder (synthetic_with_text/, synthetic/, real/)
  picture,     ///< PNG or JPEG pictures, or folders of them, each read into a scene (docs/reader.md)
};

/// A source format with what its importer needs beyond the inputs themselves.
struct ImportSource {
  SourceFormat format = SourceFormat::native;
  std::string categories;  ///< AI2D: path of categories.json (image name → category), "" none
  ImportSource(SourceFormat f = SourceFormat::native, std::string categories_path = {})  // NOLINT: a format is a source
      : format(f), categories(std::move(categories_path)) {}
};

std::optional<SourceFormat> source_format_named(std::string_view name);

/// Something an importer noticed and did not guess about: an unresolvable line name, a fact
/// about an unknown point, a missing position, a duplicate line. Carried into the output.
struct ImportNote {
  std::string kind;
  std::string detail;
};

/// One scene from a non-native source. `key` is the source's own name for it (problem id,
/// image name, figure name); a record that cannot be built at all, or whose scene fails
/// validate(), carries an InputError whose pointer is into the source file.
struct ImportedScene {
  std::string key;
  SceneOrError scene;
  std::vector<ImportNote> notes;
  /// Where the scene's elements come from: (native pointer prefix, pointer in the source file),
  /// e.g. ("/shapes/0", "/0/shapes/0"). A validation error is reported at the source pointer.
  std::vector<std::pair<std::string, std::string>> origins;
  /// Where the record is, for an importer that reads several files at once (VisOnlyQA, GePBench):
  /// the file and the 1-based line in it (a JSON list's records: the 1-based item). Empty / 0: the
  /// input being read, and the scene's ordinal in it (the batch layer's RawRecord fills them in).
  std::string file;
  std::size_t line = 0;
};

/// Validates an imported scene (validate()); an invalid one becomes its error, with the pointer
/// translated into the source file by `origins` (the longest matching prefix).
void validate_imported(ImportedScene& imported);

/// Reads a whole source file in `format` (not `native`). `file_name` is used for ids where the
/// source has none (a per-problem logic_form.json takes its directory's name).
std::vector<ImportedScene> import_source(SourceFormat format, std::string_view text, const std::string& file_name);

/// The id of the scene GePBench's image `image_id` becomes: "gepbench-<image_id>".
std::string gepbench_scene_id(const std::string& image_id);

/// A source read one scene at a time: memory holds one scene, not the file.
class SourceStream {
 public:
  virtual ~SourceStream() = default;
  /// The next scene in file order, validated as import_source's; false at the end.
  virtual bool next(ImportedScene& scene) = 0;
};

/// Streams the source file at `path` when its format can be read a scene at a time (Geometry3K's
/// annotation file); null when it must be read whole (use import_source). A stream gives the
/// scenes and errors import_source gives for the same file.
std::unique_ptr<SourceStream> stream_source(SourceFormat format, const std::string& path);

/// GePBench: the rules file (a JSON list, recognized by its text) and any number of VQA JSONL
/// files, given as (file name, text) pairs; questions attach to their image's scene.
std::vector<ImportedScene> import_gepbench(const std::vector<std::pair<std::string, std::string>>& files);

/// One row of the engine's VQA files as the native question it maps to: the template its text
/// matches (ask "unmapped" under template "unmatched" when none does), id "<aspect>-<question_id>",
/// the choices as written (each JSON value's text) and the letter of the choice equal to `answer`
/// (the engine stores the value). import_gepbench reads every row through it; the generator
/// (generate --family gepbench) writes its questions through it, so the two agree by construction.
Question gepbench_question(const std::string& aspect, const std::string& question_id, const std::string& text,
                           const std::vector<std::string>& choices, const std::string& answer);

/// VisOnlyQA: every item of the given item files, in file order, one scene each named by the
/// item's id (docs/visonlyqa.md). Plain synthetic items take the figure of the text item with the
/// same image_path (among the inputs, else from the text file beside theirs).
std::vector<ImportedScene> import_visonlyqa(const std::vector<std::pair<std::string, std::string>>& files);

/// The item files a VisOnlyQA input stands for: a split's folder gives its synthetic_with_text/,
/// synthetic/ and real/ files (in that order, each sorted); any other path is itself.
std::vector<std::string> visonlyqa_inputs(const std::string& path);

/// AI2D's category of each image ("2090.png" → "foodChainsWebs"), as categories.json lists them.
using Ai2dCategories = std::map<std::string, std::string>;
std::variant<Ai2dCategories, InputError> read_ai2d_categories(std::string_view text);

/// AI2D's id of an annotation file: "annotations/2090.png.json" → "2090".
std::string ai2d_key(const std::string& file_name);

/// One AI2D annotation (the text of <id>.png.json) with its question file's text ("" when none).
/// The scene's id is the key (AI2D's id); the category (when listed) sets its domain.
ImportedScene import_ai2d(std::string_view annotation, std::string_view questions, const std::string& key,
                          const Ai2dCategories& categories = {});

/// A JSONL of AI2D annotations, one per line, named by "id" or "imageName" and carrying their
/// "questions" (the question file's object) when they have them; or {"id", "annotation", "questions"}.
std::vector<ImportedScene> import_ai2d_lines(std::string_view text, const std::string& file_name,
                                             const Ai2dCategories& categories = {});

/// The annotation files an AI2D input stands for: a directory's *.json (its annotations/ folder
/// when it has one), in id order; any other path is itself.
std::vector<std::string> ai2d_inputs(const std::string& path);

/// The question file beside an annotation file (…/annotations/<name> → …/questions/<name>), "" when
/// there is none.
std::string ai2d_questions_path(const std::string& annotation_path);

}  // namespace geotruth
