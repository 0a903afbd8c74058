// geotruth score: model outputs scored on all items, on the items audited ok, and against
// geotruth's truth where the annotated answer is wrong (src/score/).
#include <iostream>

#include "batch/files.hpp"
#include "cli/common.hpp"
#include "score/score.hpp"

namespace geotruth::cli {

int score(ScoreCommand command, const BandOptions& band_options) {
  const RunBands run = resolve_bands(band_options, command.in, std::cerr);
  std::vector<score::Model> models;
  score::Scorer scorer;
  RecordStream stream(command.in.inputs, command.in.format(), command.in.limits);
  const ordered_json read = score::add_records(
      scorer, [&](StreamItem& item) { return stream.next(item); }, run.bands, command.in.limits);
  // VisOnlyQA's rows carry no ids: they are matched to the items by order, so the items come first.
  if (command.in.from == "visonlyqa")
    models = score::read_visonlyqa_models(command.responses, scorer, command.prompt, command.in.limits);
  else
    for (const auto& path : command.responses)
      models.push_back(score::read_model(path, command.in.limits, {.max_unpacked_bytes = command.max_unpacked_bytes}));
  std::size_t unreadable_rows = 0;
  for (const auto& model : models)
    for (const auto& row : model.rows) {
      unreadable_rows += !row.error.empty();
      if (!row.error.empty() && row.line == 0) std::cerr << "geotruth score: " << printable(row.error) << '\n';
    }
  for (const auto& e : read["unreadable"])
    std::cerr << printable(e["file"].get<std::string>()) << ':' << e["line"] << ": "
              << printable(e["error"]["pointer"].get<std::string>()) << ": "
              << printable(e["error"]["message"].get<std::string>()) << '\n';
  ordered_json scores = scorer.score(models);
  scores["bands"] = bands_json(run.bands);
  scores.update(read);
  const std::size_t records = read["records"], errors = read["errors"];
  if (!command.json.empty()) write_atomically(command.json, scores.dump(2) + "\n");
  if (!command.html.empty()) write_atomically(command.html, score::page(scores));
  std::cout << score::table(scores);
  std::cerr << "score: " << records << " records, " << errors << " unreadable, " << scorer.questions() << " questions, "
            << models.size() << " models, " << unreadable_rows << " unreadable response rows\n";
  return errors || unreadable_rows ? kRecordErrors : kOk;
}

}  // namespace geotruth::cli
