// generate_item: the families, the answer positions, the families' shared bookkeeping.
#include "generate/items.hpp"

#include <algorithm>
#include <array>

#include "batch/fnv1a.hpp"
#include "core/exact_json.hpp"
#include "generate/random.hpp"

namespace geotruth::generate {
namespace {

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finalizer
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

std::uint64_t text_hash(const std::string& text) {
  Fnv1a h;
  h.add(text);
  return h.value();
}

}  // namespace

std::size_t answer_position(std::uint64_t seed, std::uint64_t index, const std::string& kind, std::size_t occurrence) {
  const std::uint64_t block = (index - 1) / 4, slot = (index - 1) % 4;
  std::uint64_t h = mix(mix(mix(seed) ^ block) ^ text_hash(kind)) ^ occurrence;
  h = mix(h);
  std::array<std::size_t, 4> order{0, 1, 2, 3};
  for (std::size_t i = 3; i > 0; --i) {
    std::swap(order[i], order[h % (i + 1)]);
    h /= (i + 1);
  }
  return order[slot];
}

std::vector<std::string> place_answer(const std::vector<std::string>& values, std::size_t right, std::size_t position) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < values.size(); ++i)
    if (i != right) out.push_back(values[i]);
  out.insert(out.begin() + static_cast<long>(std::min(position, out.size())), values[right]);
  return out;
}

std::string picture_problem(const CandidateCheck& picture, const Scene& scene) {
  return picture ? picture(scene) : std::string();
}

GeneratedItem without_candidate(GeneratedItem item, const GenerateOptions& options) {
  ++item.rejected[item.error.value_or("unknown")];
  item.error = "no certified candidate in " + std::to_string(options.max_attempts) + " attempts";
  return item;
}

}  // namespace geotruth::generate

namespace geotruth {

GeneratedItem generate_item(const GenerateOptions& options, std::uint64_t seed, std::uint64_t index,
                            const CandidateCheck& picture) {
  if (options.family == "gepbench") return generate::gepbench_item(options, seed, index, picture);
  if (options.family == "tangram") return generate::tangram_item(options, seed, index, picture);
  GeneratedItem item;  // diagrams: answers from the construction (generate_diagram), 0-based
  item.scene = generate_diagram(seed, index - 1, diagram_words(), {options.grid});
  item.attempts = 1;
  return item;
}

std::string engine_row_members(const EngineQuestion& q) {
  std::string row = "\"question_id\": " + std::to_string(q.question_id) +
                    ", \"question\": " + ordered_json(q.question).dump() + ", \"choices\": [";
  for (std::size_t i = 0; i < q.choices.size(); ++i) row += (i ? ", " : "") + q.choices[i];
  return row + "], \"answer\": " + q.answer;
}

bool known_level(const std::string& family, const std::string& level) {
  if (family == "diagram") return level.empty();
  if (family == "gepbench") return level.empty() || level == "easy" || level == "hard";
  if (family == "tangram") return level.empty() || level == "easy" || level == "medium" || level == "hard";
  return false;
}

}  // namespace geotruth
