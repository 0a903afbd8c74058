#include <geotruth/shape_types.hpp>

namespace geotruth {

std::string shape_type(const Shape& shape) {
  if (!shape.kind.empty()) return shape.kind;
  if (const auto* polygon = std::get_if<PolygonShape>(&shape.geometry)) {
    static const char* kByCount[] = {"triangle", "quadrilateral", "pentagon", "hexagon"};
    const std::size_t n = polygon->points.size();
    return n >= 3 && n <= 6 ? kByCount[n - 3] : "polygon";
  }
  if (shape.type == "segment" || shape.type == "ray") return "line";
  return shape.type;
}

std::string type_of_phrase(std::string phrase) {
  for (auto at = phrase.find("(s)"); at != std::string::npos; at = phrase.find("(s)")) phrase.erase(at, 3);
  if (auto paren = phrase.find(" ("); paren != std::string::npos) phrase.erase(paren);
  while (!phrase.empty() && phrase.back() == ' ') phrase.pop_back();
  for (bool stripped = true; stripped;) {  // "all the stars"
    stripped = false;
    for (std::string article : {"the ", "all ", "a ", "an "})
      if (phrase.rfind(article, 0) == 0) {
        phrase.erase(0, article.size());
        stripped = true;
      }
  }
  if (phrase.size() > 1 && phrase.back() == 's') phrase.pop_back();  // every shape plural here adds an s
  return phrase;
}

}  // namespace geotruth
