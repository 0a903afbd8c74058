// geotruth score: model outputs scored on all items, on the items audited ok, and against
// geotruth's truth where the annotated answer is wrong (src/score/).
#include <iostream>

#include "audit/run.hpp"
#include "cli/common.hpp"
#include "score/score.hpp"

namespace geotruth::cli {

int score(ScoreCommand command, const BandOptions& band_options) {
  const RunBands run = resolve_bands(band_options, command.in, std::cerr);
  std::vector<score::Model> models;
  std::size_t unreadable_rows = 0;
  for (const auto& path : command.responses) {
    models.push_back(score::read_model(path, command.in.limits));
    for (const auto& row : models.back().rows) unreadable_rows += !row.error.empty();
  }
  score::Scorer scorer;
  RecordStream stream(command.in.inputs, command.in.format(), command.in.limits);
  StreamItem item;
  std::size_t records = 0, errors = 0;
  while (stream.next(item)) {
    ++records;
    if (const auto error = scorer.add(item, run.bands, command.in.limits); error && ++errors <= 20)
      std::cerr << printable(item.raw.file) << ':' << item.raw.line << ": "
                << printable(error->pointer.empty() ? "/" : error->pointer) << ": " << printable(error->message)
                << '\n';
  }
  ordered_json scores = scorer.score(models);
  scores["bands"] = bands_json(run.bands);
  scores["records"] = records;
  scores["errors"] = errors;
  if (!command.json.empty()) write_atomically(command.json, scores.dump(2) + "\n");
  if (!command.html.empty()) write_atomically(command.html, score::page(scores));
  std::cout << score::table(scores);
  std::cerr << "score: " << records << " records, " << errors << " unreadable, " << scorer.questions() << " questions, "
            << models.size() << " models, " << unreadable_rows << " unreadable response rows\n";
  return errors || unreadable_rows ? kRecordErrors : kOk;
}

}  // namespace geotruth::cli
