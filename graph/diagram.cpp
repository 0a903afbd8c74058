#include "graph/diagram.hpp"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/biconnected_components.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/topological_sort.hpp>
#include <boost/pending/disjoint_sets.hpp>
#include <cctype>
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

bool has_tag(const Entity& e, std::string_view tag) {
  return std::find(e.tags.begin(), e.tags.end(), tag) != e.tags.end();
}

}  // namespace

struct DiagramGraph::Impl {
  const Scene& scene;
  Directed directed;  // one edge per directed link; undirected links give both directions
  std::vector<std::string> names;
  std::map<std::string, std::size_t> by_id, by_text;

  explicit Impl(const Scene& s) : scene(s), directed(s.entities.size()) {
    for (std::size_t i = 0; i < s.entities.size(); ++i) {
      const Entity& e = s.entities[i];
      names.push_back(e.text.empty() ? e.id : e.text);
      by_id.emplace(e.id, i);
      by_text.emplace(folded(e.text.empty() ? e.id : e.text), i);
    }
    for (const Link& l : s.links) {
      const std::size_t from = by_id.at(l.from), to = by_id.at(l.to);
      boost::add_edge(from, to, directed);
      if (!l.directed) boost::add_edge(to, from, directed);
    }
  }
};

DiagramGraph::DiagramGraph(const Scene& scene) : impl_(std::make_unique<Impl>(scene)) {}
DiagramGraph::~DiagramGraph() = default;

std::optional<std::size_t> DiagramGraph::entity(std::string_view name) const {
  if (auto it = impl_->by_id.find(std::string(name)); it != impl_->by_id.end()) return it->second;
  if (auto it = impl_->by_text.find(folded(name)); it != impl_->by_text.end()) return it->second;
  return std::nullopt;
}

const std::string& DiagramGraph::name(std::size_t entity) const {
  return impl_->names[entity];
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

DiagramGraph::Chains DiagramGraph::chains() const {
  const Directed& g = impl_->directed;
  std::vector<std::size_t> order;
  try {
    boost::topological_sort(g, std::back_inserter(order));  // reverse topological order
  } catch (const boost::not_a_dag&) {
    // Name one cycle: walk successors from any vertex on a cycle until a repeat.
    Chains result;
    for (std::size_t start = 0; start < boost::num_vertices(g) && result.cycle.empty(); ++start) {
      std::vector<std::size_t> path;
      std::map<std::size_t, std::size_t> seen;
      std::size_t v = start;
      while (!seen.count(v) && boost::out_degree(v, g) > 0) {
        seen[v] = path.size();
        path.push_back(v);
        v = *boost::adjacent_vertices(v, g).first;
      }
      if (seen.count(v))
        for (std::size_t k = seen[v]; k < path.size(); ++k) result.cycle.push_back(impl_->names[path[k]]);
    }
    return result;
  }
  // paths[v]: maximal paths from v to a sink; order lists sinks first.
  std::vector<std::size_t> paths(boost::num_vertices(g), 0);
  for (auto v : order) {
    if (boost::out_degree(v, g) == 0) {
      paths[v] = boost::in_degree(v, g) > 0 ? 1 : 0;  // an isolated entity is no chain
      continue;
    }
    for (auto [it, end] = boost::out_edges(v, g); it != end; ++it) paths[v] += paths[boost::target(*it, g)];
  }
  std::size_t total = 0;
  for (std::size_t v = 0; v < paths.size(); ++v)
    if (boost::in_degree(v, g) == 0 && boost::out_degree(v, g) > 0) total += paths[v];
  return {total, {}};
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
