#include "graph/diagram.hpp"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/biconnected_components.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/topological_sort.hpp>
#include <boost/pending/disjoint_sets.hpp>
// After disjoint_sets: reverse_graph's detail::get would hide the property-map get it uses.
#include <boost/graph/strong_components.hpp>
#include <cctype>
#include <functional>
#include <geotruth/work_limit.hpp>
#include <map>
#include <set>

namespace geotruth::graph {
namespace {

using Directed = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;

std::string folded(std::string_view text) {
  std::string out;
  for (char c : text) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The words a name is matched by: lower case, letters and digits, articles and a plural s aside.
std::set<std::string> words_of(std::string_view text) {
  static const std::set<std::string> kSkip = {"the", "a", "an", "of", "and", "its", "is", "are", "to", "in", "on"};
  std::set<std::string> out;
  std::string word;
  auto flush = [&] {
    if (word.size() > 3 && word.back() == 's' && word[word.size() - 2] != 's') word.pop_back();
    if (!word.empty() && !kSkip.count(word)) out.insert(word);
    word.clear();
  };
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else
      flush();
  }
  flush();
  return out;
}

bool has_tag(const Entity& e, std::string_view tag) {
  return std::find(e.tags.begin(), e.tags.end(), tag) != e.tags.end();
}

}  // namespace

struct DiagramGraph::Impl {
  const Scene& scene;
  Directed directed;  // one edge per directed link; undirected links give both directions
  Directed arrows;    // the directed links alone: chains, cycles, sources and sinks follow arrows only
  std::vector<std::string> names;
  std::map<std::string, std::size_t> by_id;
  std::map<std::string, std::vector<std::size_t>> by_text;  // several entities may share a name

  std::vector<std::set<std::string>> words;

  // One edge per pair of distinct entities and direction, however many links draw it.
  explicit Impl(const Scene& s) : scene(s), directed(s.entities.size()), arrows(s.entities.size()) {
    for (std::size_t i = 0; i < s.entities.size(); ++i) {
      const Entity& e = s.entities[i];
      names.push_back(e.text.empty() ? e.id : e.text);
      by_id.emplace(e.id, i);
      std::set<std::string> texts{folded(e.text.empty() ? e.id : e.text)};
      words.push_back(words_of(e.text));
      for (const auto& label : e.labels) {
        texts.insert(folded(label.text));
        for (auto& w : words_of(label.text)) words.back().insert(w);
      }
      for (const auto& t : texts) by_text[t].push_back(i);
    }
    std::set<std::pair<std::size_t, std::size_t>> edges, arrow_edges;
    for (const Link& l : s.links) {
      const std::size_t from = by_id.at(l.from), to = by_id.at(l.to);
      if (from == to) continue;
      edges.insert({from, to});
      if (l.directed)
        arrow_edges.insert({from, to});
      else
        edges.insert({to, from});
    }
    for (const auto& [from, to] : edges) boost::add_edge(from, to, directed);
    for (const auto& [from, to] : arrow_edges) boost::add_edge(from, to, arrows);
  }

  // The one entity whose words relate to `wanted` by `fits`.
  template <typename Fits>
  std::optional<std::size_t> unique(const std::set<std::string>& wanted, Fits&& fits) const {
    std::optional<std::size_t> found;
    for (std::size_t i = 0; i < words.size(); ++i)
      if (!words[i].empty() && fits(words[i], wanted)) {
        if (found) return std::nullopt;
        found = i;
      }
    return found;
  }
};

DiagramGraph::DiagramGraph(const Scene& scene) : impl_(std::make_unique<Impl>(scene)) {}
DiagramGraph::~DiagramGraph() = default;

std::optional<std::size_t> DiagramGraph::entity(std::string_view name) const {
  if (auto it = impl_->by_id.find(std::string(name)); it != impl_->by_id.end()) return it->second;
  if (auto it = impl_->by_text.find(folded(name)); it != impl_->by_text.end())
    return it->second.size() == 1 ? std::optional(it->second.front()) : std::nullopt;  // "R", "R": which?
  const auto wanted = words_of(name);
  if (wanted.empty()) return std::nullopt;
  auto includes = [](const std::set<std::string>& a, const std::set<std::string>& b) {
    return std::includes(a.begin(), a.end(), b.begin(), b.end());
  };
  if (auto e = impl_->unique(wanted, [](const auto& words, const auto& w) { return words == w; })) return e;
  if (auto e = impl_->unique(wanted, includes)) return e;
  return impl_->unique(wanted, [&](const auto& words, const auto& w) { return includes(w, words); });
}

const std::string& DiagramGraph::name(std::size_t entity) const {
  return impl_->names[entity];
}

bool DiagramGraph::named(std::size_t entity) const {
  return !impl_->scene.entities[entity].text.empty();
}

std::vector<std::size_t> DiagramGraph::successors(std::size_t entity) const {
  std::set<std::size_t> out;
  for (auto [it, end] = boost::adjacent_vertices(entity, impl_->directed); it != end; ++it) out.insert(*it);
  return {out.begin(), out.end()};
}

std::vector<std::size_t> DiagramGraph::predecessors(std::size_t entity) const {
  std::set<std::size_t> out;
  for (auto [it, end] = boost::inv_adjacent_vertices(entity, impl_->directed); it != end; ++it) out.insert(*it);
  return {out.begin(), out.end()};
}

std::vector<std::size_t> DiagramGraph::neighbours(std::size_t entity) const {
  auto out = successors(entity);
  for (auto p : predecessors(entity)) out.push_back(p);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  out.erase(std::remove(out.begin(), out.end(), entity), out.end());
  return out;
}

std::size_t DiagramGraph::links_touching(std::size_t entity) const {
  const std::string& id = impl_->scene.entities[entity].id;
  return static_cast<std::size_t>(std::count_if(impl_->scene.links.begin(), impl_->scene.links.end(),
                                                [&](const Link& l) { return l.from == id || l.to == id; }));
}

std::vector<std::size_t> DiagramGraph::reachable_from(std::size_t entity) const {
  std::vector<boost::default_color_type> colour(boost::num_vertices(impl_->directed));
  auto colours = boost::make_iterator_property_map(colour.begin(), boost::get(boost::vertex_index, impl_->directed));
  boost::breadth_first_search(impl_->directed, entity, boost::color_map(colours));
  std::vector<std::size_t> out;
  for (std::size_t v = 0; v < colour.size(); ++v)
    if (v != entity && colour[v] != boost::white_color) out.push_back(v);
  return out;
}

std::vector<std::vector<std::size_t>> DiagramGraph::cycles() const {
  const Directed& g = impl_->arrows;
  std::vector<std::size_t> component(boost::num_vertices(g));
  const std::size_t count = boost::strong_components(
      g, boost::make_iterator_property_map(component.begin(), boost::get(boost::vertex_index, g)));
  std::vector<std::vector<std::size_t>> groups(count);
  for (std::size_t v = 0; v < component.size(); ++v) groups[component[v]].push_back(v);
  std::vector<std::vector<std::size_t>> out;
  for (auto& group : groups)
    if (group.size() > 1) out.push_back(std::move(group));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::size_t> DiagramGraph::sources() const {
  const Directed& g = impl_->arrows;
  std::vector<std::size_t> out;
  for (std::size_t v = 0; v < boost::num_vertices(g); ++v)
    if (boost::in_degree(v, g) == 0 && boost::out_degree(v, g) > 0) out.push_back(v);
  return out;
}

std::vector<std::size_t> DiagramGraph::sinks() const {
  const Directed& g = impl_->arrows;
  std::vector<std::size_t> out;
  for (std::size_t v = 0; v < boost::num_vertices(g); ++v)
    if (boost::out_degree(v, g) == 0 && boost::in_degree(v, g) > 0) out.push_back(v);
  return out;
}

std::vector<std::size_t> DiagramGraph::linked() const {
  std::vector<std::size_t> out;
  for (std::size_t v = 0; v < boost::num_vertices(impl_->directed); ++v)
    if (boost::out_degree(v, impl_->directed) + boost::in_degree(v, impl_->directed) > 0) out.push_back(v);
  return out;
}

DiagramGraph::Chains DiagramGraph::chains() const {
  const Directed& g = impl_->arrows;
  Chains result;
  for (const auto& cycle : cycles()) {
    for (auto v : cycle) result.cycle.push_back(impl_->names[v]);
    break;
  }
  if (result.cycle.empty()) {
    // paths[v]: simple paths from v to a sink, by dynamic programming over a topological order.
    std::vector<std::size_t> order, paths(boost::num_vertices(g), 0);
    boost::topological_sort(g, std::back_inserter(order));  // sinks first
    for (auto v : order) {
      if (boost::out_degree(v, g) == 0) paths[v] = 1;
      for (auto [it, end] = boost::out_edges(v, g); it != end; ++it) paths[v] += paths[boost::target(*it, g)];
    }
    for (auto v : sources()) result.count += paths[v];
    return result;
  }
  // With a cycle: walk every simple path from each source, counting those that reach a sink.
  std::vector<char> on_path(boost::num_vertices(g), 0);
  std::function<void(std::size_t)> walk = [&](std::size_t v) {
    charge_work();
    if (boost::out_degree(v, g) == 0) {
      ++result.count;
      return;
    }
    on_path[v] = 1;
    for (auto [it, end] = boost::out_edges(v, g); it != end; ++it)
      if (!on_path[boost::target(*it, g)]) walk(boost::target(*it, g));
    on_path[v] = 0;
  };
  for (auto v : sources()) walk(v);
  return result;
}

DiagramGraph::Circuit DiagramGraph::circuit() const {
  // Terminal-level graph: a component (battery, bulb, switch, resistor) becomes two terminal
  // vertices joined by its own edge; any other entity is a junction vertex; wires are edges.
  struct EdgeInfo {
    std::size_t entity = SIZE_MAX;  // the component this edge is, SIZE_MAX for a wire
  };
  using Undirected = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, boost::no_property,
                                           boost::property<boost::edge_index_t, std::size_t, EdgeInfo>>;
  const Scene& s = impl_->scene;
  Circuit result;
  auto is_component = [](const Entity& e) {
    return has_tag(e, "battery") || has_tag(e, "bulb") || has_tag(e, "switch") || has_tag(e, "resistor");
  };
  std::vector<std::size_t> first_vertex(s.entities.size());
  std::size_t vertices = 0;
  for (std::size_t i = 0; i < s.entities.size(); ++i) {
    first_vertex[i] = vertices;
    vertices += is_component(s.entities[i]) ? 2 : 1;
  }
  Undirected g(vertices);
  std::size_t edges = 0;
  std::vector<int> wires_seen(s.entities.size(), 0);
  auto terminal = [&](std::size_t e) {
    if (!is_component(s.entities[e])) return first_vertex[e];
    return first_vertex[e] + std::min(wires_seen[e]++, 1);
  };
  boost::disjoint_sets_with_storage<> plain_wire(vertices);  // connected by wire alone
  for (std::size_t v = 0; v < vertices; ++v) plain_wire.make_set(v);
  for (const Link& l : s.links) {
    const std::size_t a = terminal(impl_->by_id.at(l.from)), b = terminal(impl_->by_id.at(l.to));
    boost::add_edge(a, b, {edges++, EdgeInfo{}}, g);
    plain_wire.union_set(a, b);
  }
  std::optional<std::size_t> battery_edge;
  std::map<std::size_t, std::size_t> bulb_edge;  // entity → edge index
  for (std::size_t i = 0; i < s.entities.size(); ++i) {
    const Entity& e = s.entities[i];
    if (!is_component(e)) continue;
    if (wires_seen[i] != 2) {
      result.problem = "component \"" + impl_->names[i] + "\" has " + std::to_string(wires_seen[i]) +
                       " wires (a component needs exactly two)";
      return result;
    }
    const std::size_t a = first_vertex[i], b = first_vertex[i] + 1;
    boost::add_edge(a, b, {edges, EdgeInfo{i}}, g);
    if (has_tag(e, "switch")) plain_wire.union_set(a, b);  // closed
    if (has_tag(e, "battery") && !battery_edge) battery_edge = edges;
    if (has_tag(e, "bulb")) bulb_edge[i] = edges;
    ++edges;
  }
  if (!battery_edge) {
    result.problem = "no entity tagged \"battery\"";
    return result;
  }
  for (const auto& [bulb, _] : bulb_edge)
    if (plain_wire.find_set(first_vertex[bulb]) == plain_wire.find_set(first_vertex[bulb] + 1))
      result.shorted.push_back(bulb);
  std::size_t battery = 0;
  for (std::size_t i = 0; i < s.entities.size(); ++i)
    if (has_tag(s.entities[i], "battery")) {
      battery = i;
      break;
    }
  if (plain_wire.find_set(first_vertex[battery]) == plain_wire.find_set(first_vertex[battery] + 1)) {
    result.shorted.push_back(battery);  // the battery itself is bypassed: no current anywhere else
    return result;
  }
  // An edge lies on a simple cycle with the battery iff both are in one biconnected component.
  std::vector<std::size_t> component(edges);
  auto component_map = boost::make_iterator_property_map(component.begin(), boost::get(boost::edge_index, g));
  boost::biconnected_components(g, component_map);
  std::vector<std::size_t> component_of_edge(edges);
  for (auto [it, end] = boost::edges(g); it != end; ++it)
    component_of_edge[boost::get(boost::edge_index, g, *it)] = component[boost::get(boost::edge_index, g, *it)];
  for (const auto& [bulb, edge] : bulb_edge) {
    const bool on_loop = component_of_edge[edge] == component_of_edge[*battery_edge];
    const bool bypassed = std::count(result.shorted.begin(), result.shorted.end(), bulb) > 0;
    if (on_loop && !bypassed) result.glowing.push_back(bulb);
  }
  return result;
}

}  // namespace geotruth::graph
