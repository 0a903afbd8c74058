// The diagram generator: layout on a lattice (or a 3×3 grid), arrows that avoid every other box
// and each other, and questions answered from the construction's own bookkeeping.
#include <algorithm>
#include <geotruth/generate.hpp>
#include <numeric>
#include <random>
#include <set>

#include "generate/random.hpp"
#include "geometry/predicates.hpp"

namespace geotruth {
namespace {

using generate::Random;

constexpr int kBoxWidth = 100, kBoxHeight = 40;
constexpr int kClearancePx = 4;  // arrows keep this far from other boxes (above eps_vis = 3 px)

struct Placed {
  Entity entity;
  int column = 0, row = 0;  // lattice or grid cell
  Vec2 centre;
};

// Where the straight line from box a's centre to box b's centre leaves box a.
Vec2 exit_point(const Placed& a, const Placed& b) {
  const Rational dx = b.centre.x - a.centre.x, dy = b.centre.y - a.centre.y;
  Rational t = 1;
  if (dx != 0) t = std::min(t, Rational(Rational(kBoxWidth, 2) / abs(dx)));
  if (dy != 0) t = std::min(t, Rational(Rational(kBoxHeight, 2) / abs(dy)));
  return {a.centre.x + t * dx, a.centre.y + t * dy};
}

geometry::Box grown(const geometry::Box& box) {
  return {Rational(box[0] - kClearancePx), Rational(box[1] - kClearancePx), Rational(box[2] + kClearancePx),
          Rational(box[3] + kClearancePx)};
}

// Four options: the correct one and three distractors, shuffled; returns the answer letter.
std::string with_options(Question& q, const std::string& correct, std::vector<std::string> distractors, Random& rng) {
  q.options = {correct};
  q.options.insert(q.options.end(), distractors.begin(), distractors.begin() + 3);
  rng.shuffle(q.options);
  const auto at = std::find(q.options.begin(), q.options.end(), correct) - q.options.begin();
  return std::string(1, static_cast<char>('A' + at));
}

void count_question(Scene& s, Question q, std::size_t value, Random& rng) {
  std::vector<std::string> distractors;
  for (int delta : {1, -1, 2, -2, 3, 4, 5})
    if (static_cast<long>(value) + delta >= 0) distractors.push_back(std::to_string(static_cast<long>(value) + delta));
  distractors.resize(3);
  q.answer = with_options(q, std::to_string(value), distractors, rng);
  s.questions.push_back(std::move(q));
}

}  // namespace

Scene generate_diagram(std::uint64_t seed, std::uint64_t index, const std::vector<std::string>& words,
                       const DiagramOptions& options) {
  Random rng(seed, index);
  Scene s;
  s.id = "diagram-" + std::to_string(seed) + "-" + std::to_string(index);
  s.frame.width = s.frame.height = 600;
  const std::size_t n = 2 + rng.below(8);

  // Cells: a 3×3 grid of 200-px cells, or a 5×7 lattice (column steps 116 px, row steps 80 px).
  // Box centres then differ by whole steps or not at all: every position relation is clear.
  const int columns = options.grid ? 3 : 5, rows = options.grid ? 3 : 7;
  std::vector<int> cells(static_cast<std::size_t>(columns * rows));
  std::iota(cells.begin(), cells.end(), 0);
  rng.shuffle(cells);
  std::vector<std::string> pool = words;
  rng.shuffle(pool);
  std::vector<Placed> placed;
  for (std::size_t i = 0; i < n; ++i) {
    Placed p;
    p.column = cells[i] % columns;
    p.row = cells[i] / columns;
    const int x0 = options.grid ? 50 + 200 * p.column : 20 + 116 * p.column;
    const int y0 = options.grid ? 80 + 200 * p.row : 30 + 80 * p.row;
    p.entity.id = "e" + std::to_string(i + 1);
    p.entity.text = pool[i];
    p.entity.box = {x0, y0, x0 + kBoxWidth, y0 + kBoxHeight};
    p.centre = {Rational(x0 + kBoxWidth / 2), Rational(y0 + kBoxHeight / 2)};
    placed.push_back(p);
  }
  if (options.grid) s.grid = Grid{3, 3};

  // Arrows: random pairs, kept when the path clears every other box and crosses no earlier arrow.
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b)
      if (a != b) pairs.emplace_back(a, b);
  rng.shuffle(pairs);
  const std::size_t wanted = 1 + rng.below(std::min<std::size_t>(n * (n - 1) / 2, 2 * n));
  std::set<std::pair<std::size_t, std::size_t>> linked;  // unordered pairs
  std::vector<std::vector<std::size_t>> neighbours(n);
  std::vector<std::size_t> degree(n, 0);
  for (const auto& [a, b] : pairs) {
    if (s.links.size() == wanted) break;
    if (linked.count({std::min(a, b), std::max(a, b)})) continue;
    const Vec2 from = exit_point(placed[a], placed[b]), to = exit_point(placed[b], placed[a]);
    bool clear = true;
    for (std::size_t c = 0; c < n && clear; ++c)
      if (c != a && c != b) clear = !geometry::segment_enters_box(from, to, grown(placed[c].entity.box));
    for (const Link& l : s.links)
      if (clear) clear = !geometry::segment_crossing(from, to, l.path.front(), l.path.back());
    if (!clear) continue;
    s.links.push_back({"", placed[a].entity.id, placed[b].entity.id, true, LinkKind::arrow, {from, to}, {}, {}, ""});
    linked.insert({std::min(a, b), std::max(a, b)});
    neighbours[a].push_back(b);
    neighbours[b].push_back(a);
    ++degree[a];
    ++degree[b];
  }
  for (const auto& p : placed) s.entities.push_back(p.entity);
  auto name = [&](std::size_t e) { return placed[e].entity.text; };

  // Questions, each answered from the bookkeeping above.
  Question q;
  q.ask = "count";
  q.id = "entities";
  q.of = "entities";
  count_question(s, q, n, rng);
  q.id = "links";
  q.of = "links";
  count_question(s, q, s.links.size(), rng);
  const std::size_t x = rng.below(n);
  q.id = "links_touching";
  q.touching = name(x);
  count_question(s, q, degree[x], rng);
  q = Question{};
  q.ask = "count";
  q.id = "connected";
  q.of = "entities";
  q.connected_to = name(x);
  count_question(s, q, neighbours[x].size(), rng);

  // Which pair is connected: one linked pair, three unlinked ones.
  std::vector<std::string> unlinked;
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b)
      if (!linked.count({a, b})) unlinked.push_back(name(a) + " - " + name(b));
  if (unlinked.size() >= 3) {
    rng.shuffle(unlinked);
    const auto& [a, b] = *std::next(linked.begin(), static_cast<long>(rng.below(linked.size())));
    Question pair;
    pair.id = "connected_pair";
    pair.ask = "which";
    pair.connected_pair = true;
    pair.answer = with_options(pair, name(a) + " - " + name(b), unlinked, rng);
    s.questions.push_back(std::move(pair));
  }

  // Position relations by lattice cell: left/right by column, above/below by row (y down).
  struct Relation {
    const char* name;
    bool (*holds)(const Placed&, const Placed&);
  };
  const Relation relations[] = {
      {"left_of", [](const Placed& e, const Placed& a) { return e.column < a.column; }},
      {"right_of", [](const Placed& e, const Placed& a) { return e.column > a.column; }},
      {"above", [](const Placed& e, const Placed& a) { return e.row < a.row; }},
      {"below", [](const Placed& e, const Placed& a) { return e.row > a.row; }},
  };
  const Relation& r = relations[rng.below(4)];
  const std::size_t anchor = rng.below(n);
  std::vector<std::size_t> yes, no;
  for (std::size_t e = 0; e < n; ++e)
    if (e != anchor) (r.holds(placed[e], placed[anchor]) ? yes : no).push_back(e);
  Question count_rel;
  count_rel.id = "count_" + std::string(r.name);
  count_rel.ask = "count";
  count_rel.of = "entities";
  count_rel.relation = r.name;
  count_rel.anchor = name(anchor);
  count_question(s, count_rel, yes.size(), rng);
  if (!yes.empty() && no.size() >= 3) {
    Question which;
    which.id = "which_" + std::string(r.name);
    which.ask = "which";
    which.relation = r.name;
    which.anchor = name(anchor);
    std::vector<std::string> distractors;
    for (auto e : no) distractors.push_back(name(e));
    rng.shuffle(distractors);
    which.answer = with_options(which, name(yes[rng.below(yes.size())]), distractors, rng);
    s.questions.push_back(std::move(which));
  }

  // Existence: one entity's name among three words the diagram does not use.
  Question exists;
  exists.id = "exists";
  exists.ask = "exists";
  exists.answer = with_options(exists, name(rng.below(n)), {pool.begin() + n, pool.begin() + n + 3}, rng);
  s.questions.push_back(std::move(exists));

  if (options.grid) {
    static const char* kRows[] = {"top", "center", "bottom"};
    const int row = placed[rng.below(n)].row;
    Question in_row;
    in_row.id = "row_count";
    in_row.ask = "count";
    in_row.of = "entities";
    in_row.row = kRows[row];
    count_question(s, in_row,
                   static_cast<std::size_t>(
                       std::count_if(placed.begin(), placed.end(), [&](const Placed& p) { return p.row == row; })),
                   rng);
    std::vector<std::string> inside, outside;
    for (const auto& p : placed) (p.row == row ? inside : outside).push_back(p.entity.text);
    if (outside.size() >= 3) {
      rng.shuffle(outside);
      Question which_row;
      which_row.id = "which_row";
      which_row.ask = "which";
      which_row.relation = "in_row";
      which_row.value = kRows[row];
      which_row.answer = with_options(which_row, inside[rng.below(inside.size())], outside, rng);
      s.questions.push_back(std::move(which_row));
    }
  }
  return s;
}

}  // namespace geotruth
