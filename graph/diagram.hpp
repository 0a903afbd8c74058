// The relation graph of a diagram: entities as vertices, links as edges (Boost.Graph inside).
#pragma once

#include <geotruth/scene.hpp>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace geotruth::graph {

class DiagramGraph {
 public:
  explicit DiagramGraph(const Scene& scene);
  ~DiagramGraph();

  /// An entity by id, else by its text or a label's text (case-insensitive), else by the words
  /// of its name (articles and plural s aside): the one entity whose words are the name's, or
  /// contain them, or are contained in them. Empty when none or several fit.
  std::optional<std::size_t> entity(std::string_view name) const;
  /// The name answers use: the entity's text, or its id when it has none.
  const std::string& name(std::size_t entity) const;
  /// False for an entity the diagram does not name (an unlabelled blob).
  bool named(std::size_t entity) const;

  /// Entities at the head of links leaving `entity` (directed links), or joined by undirected ones.
  std::vector<std::size_t> successors(std::size_t entity) const;
  std::vector<std::size_t> predecessors(std::size_t entity) const;
  /// Entities joined to `entity` by any link, either way, without repeats.
  std::vector<std::size_t> neighbours(std::size_t entity) const;
  /// Links with `entity` at either end.
  std::size_t links_touching(std::size_t entity) const;
  /// Entities reachable from `entity` along directed links, `entity` itself excluded.
  std::vector<std::size_t> reachable_from(std::size_t entity) const;

  /// Food chains: simple paths along the directed links from an entity no arrow enters to one no
  /// arrow leaves (undirected links are no part of a chain). `cycle` names the entities of a directed cycle when there
  /// is one (chains go around it, never through it twice).
  struct Chains {
    std::size_t count = 0;
    std::vector<std::string> cycle;
  };
  Chains chains() const;

  /// The cycles: strongly connected groups of more than one entity along directed links (a loop of
  /// undirected wires is the circuit's, not a cycle).
  std::vector<std::vector<std::size_t>> cycles() const;
  /// Entities with arrows leaving and none entering (sources), or entering and none leaving (sinks).
  std::vector<std::size_t> sources() const;
  std::vector<std::size_t> sinks() const;
  /// Entities at either end of a link between two different entities.
  std::vector<std::size_t> linked() const;

  /// Bulbs that glow with every switch closed: on a closed loop through the battery, with neither
  /// the bulb nor the battery bypassed by plain wire. `problem` explains a circuit that cannot be
  /// read (no battery, a component without exactly two wires).
  struct Circuit {
    std::vector<std::size_t> glowing;
    std::vector<std::size_t> shorted;
    std::string problem;
  };
  Circuit circuit() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace geotruth::graph
