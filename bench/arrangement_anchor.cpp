// Anchor for scripts/bench's geometric row: CGAL's own Arrangement_2 (segment traits over the
// exact Epeck kernel, aggregated sweep-line insertion) built from the segments of one native
// scene (each line from its first to its last point, decimals read exactly). Prints the
// arrangement's size; its crossings are the vertices that are not segment ends.
//
// Usage: arrangement_anchor SCENE.jsonl
#include <CGAL/Arr_segment_traits_2.h>
#include <CGAL/Arrangement_2.h>
#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/Exact_rational.h>

#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "exact_numbers.hpp"

using Kernel = CGAL::Epeck;
using Traits = CGAL::Arr_segment_traits_2<Kernel>;
using Arrangement = CGAL::Arrangement_2<Traits>;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: arrangement_anchor SCENE.jsonl\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  std::string line;
  std::getline(in, line);
  const nlohmann::json scene = bench::parse_exact(line);
  std::map<std::string, Kernel::Point_2> points;
  for (const auto& p : scene["points"]) {
    auto coordinate = [&](int k) {
      return Kernel::FT(CGAL::Exact_rational(bench::decimal(p["at"][k].get<std::string>()).get_mpq_t()));
    };
    points.emplace(p["id"].get<std::string>(), Kernel::Point_2(coordinate(0), coordinate(1)));
  }
  std::vector<Traits::X_monotone_curve_2> segments;
  for (const auto& l : scene["lines"])
    segments.emplace_back(points.at(l["through"].front().get<std::string>()),
                          points.at(l["through"].back().get<std::string>()));
  Arrangement arrangement;
  CGAL::insert(arrangement, segments.begin(), segments.end());
  std::size_t ends = 0;
  for (auto v = arrangement.vertices_begin(); v != arrangement.vertices_end(); ++v) ends += v->degree() % 2 == 1;
  std::cout << "{\"segments\":" << segments.size() << ",\"vertices\":" << arrangement.number_of_vertices()
            << ",\"crossings\":" << arrangement.number_of_vertices() - ends
            << ",\"edges\":" << arrangement.number_of_edges() << ",\"faces\":" << arrangement.number_of_faces()
            << "}\n";
}
