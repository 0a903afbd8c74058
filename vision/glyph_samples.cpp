// Glyphs drawn for the classifier's training and measurement (vision/glyph_render.hpp): each read
// back through the picture pipeline a reader uses (measure_paper, ink components, glyph_strength,
// normalized_glyph), so that a sample is what the reader would see of that glyph.
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "vision/glyph_render.hpp"
#include "vision/glyphs.hpp"
#include "vision/noise.hpp"
#include "vision/paper.hpp"

namespace geotruth::vision {
namespace {

double uniform(Random& r, double lo, double hi) {
  return lo + (hi - lo) * r.uniform();
}

// A mark that is no character, centred on c, about `size` across: a dot, a straight piece away
// from the vertical (an I) and the horizontal, a shallow arc, a filled arrowhead, a right-angle
// mark turned away from an L, or a stroke's bend.
SheetStroke random_mark(Random& r, PixelPoint c, double size) {
  SheetStroke s;
  s.width = uniform(r, 1, std::max(1.5, 0.12 * size));
  const int kind = static_cast<int>(r.next() % 6);
  const double turn = uniform(r, 0, 2 * std::numbers::pi);
  auto at = [&](double x, double y, double angle) {
    return PixelPoint{c.x + x * std::cos(angle) - y * std::sin(angle), c.y + x * std::sin(angle) + y * std::cos(angle)};
  };
  switch (kind) {
    case 0: {  // a dot
      const double radius = uniform(r, 1.2, std::max(1.5, 0.22 * size));
      for (int k = 0; k < 24; ++k) s.path.push_back(at(radius, 0, 2 * std::numbers::pi * k / 24));
      s.filled = true;
      break;
    }
    case 1: {  // a straight piece 30°–60° off the horizontal
      const double half = uniform(r, 0.25, 0.6) * size,
                   angle = (r.uniform() < 0.5 ? 1 : -1) * uniform(r, 30, 60) * std::numbers::pi / 180;
      s.path = {at(-half, 0, angle), at(half, 0, angle)};
      break;
    }
    case 2: {  // an arc of at most 80°
      const double radius = uniform(r, 0.5, 1.5) * size, span = uniform(r, 30, 80) * std::numbers::pi / 180;
      const PixelPoint centre = at(-radius, 0, turn);
      for (int k = 0; k <= 12; ++k) {
        const double a = turn - span / 2 + span * k / 12;
        s.path.push_back({centre.x + radius * std::cos(a), centre.y + radius * std::sin(a)});
      }
      break;
    }
    case 3: {  // a filled arrowhead
      const double len = uniform(r, 0.4, 0.8) * size, half = len * uniform(r, 0.25, 0.45);
      s.path = {at(len / 2, 0, turn), at(-len / 2, half, turn), at(-len / 2, -half, turn)};
      s.filled = true;
      break;
    }
    case 4: {  // a right-angle mark, its corner anywhere but at the bottom left (an L)
      const double side = uniform(r, 0.3, 0.7) * size, angle = uniform(r, 30, 330) * std::numbers::pi / 180;
      s.path = {at(0, -side, angle), at(0, 0, angle), at(side, 0, angle)};
      break;
    }
    default: {  // a bend of a stroke: two pieces at 100°–160°, opening downwards or sideways
      const double arm = uniform(r, 0.3, 0.6) * size, bend = uniform(r, 100, 160) * std::numbers::pi / 180;
      const double angle = uniform(r, -60, 60) * std::numbers::pi / 180;
      s.path = {at(-arm, 0, angle), at(0, 0, angle), at(-arm * std::cos(bend), arm * std::sin(bend), angle)};
      break;
    }
  }
  return s;
}

// The glyph's ink in the picture: the ink components lying mostly inside its drawn box (grown by
// a pixel), as one mask; specks of noise there (a tenth of the largest component) left out, as the
// reader leaves them.
bool extract(const Paper& paper, const cv::Rect& truth, cv::Mat& mask, cv::Rect& box) {
  cv::Mat labels, stats, centroids;
  const int n = cv::connectedComponentsWithStats(solid_ink(paper), labels, stats, centroids, 8, CV_32S);
  const cv::Rect grown = (truth + cv::Size(2, 2) - cv::Point(1, 1)) & cv::Rect(0, 0, labels.cols, labels.rows);
  std::vector<int> inside(n, 0);
  for (int y = grown.y; y < grown.y + grown.height; ++y)
    for (int x = grown.x; x < grown.x + grown.width; ++x) ++inside[labels.at<int>(y, x)];
  int largest = 0;
  for (int i = 1; i < n; ++i)
    if (inside[i] * 2 >= stats.at<int>(i, cv::CC_STAT_AREA))
      largest = std::max(largest, stats.at<int>(i, cv::CC_STAT_AREA));
  cv::Mat all = cv::Mat::zeros(labels.size(), CV_8U);
  bool any = false;
  for (int i = 1; i < n; ++i) {
    const int area = stats.at<int>(i, cv::CC_STAT_AREA);
    if (inside[i] * 2 < area || area < std::max(2, largest / 10)) continue;
    all.setTo(255, labels == i);
    any = true;
  }
  if (!any) return false;
  std::vector<cv::Point> points;
  cv::findNonZero(all, points);
  box = cv::boundingRect(points);
  mask = all(box).clone();
  return true;
}

}  // namespace

std::vector<GlyphSample> glyph_samples(const SampleOptions& options) {
  const auto& classes = glyph_classes();
  std::vector<GlyphSample> out;
  out.reserve(classes.size() * options.per_class);
  Random r(options.seed);
  for (std::size_t k = 0; k < options.per_class; ++k)
    for (std::size_t label = 0; label < classes.size(); ++label) {
      GlyphSample g;
      g.label = label;
      g.font = options.fonts[r.next() % options.fonts.size()];
      g.size_px = std::exp(uniform(r, std::log(options.min_size_px), std::log(options.max_size_px)));
      const std::string& name = classes[label];
      if (name == "'")
        g.text = r.uniform() < 0.5 ? "'" : "\u2032";
      else if (name.size() == 1 && case_twin(name[0]) && r.uniform() < 0.5)
        g.text = std::string(1, static_cast<char>(name[0] - 'A' + 'a'));
      else
        g.text = name;
      Sheet sheet;
      sheet.width = sheet.height = static_cast<int>(std::ceil(1.8 * g.size_px)) + 16;
      sheet.seed = r.next();
      const PixelPoint centre{sheet.width / 2.0 + uniform(r, -1, 1), sheet.height / 2.0 + uniform(r, -1, 1)};
      SheetText text{g.text, centre, g.font, g.size_px};
      // A third drawn clean (at most a light JPEG), as most diagrams are; the rest degraded.
      if (options.degrade && r.uniform() < 0.35) {
        if (r.uniform() < 0.5) sheet.jpeg_quality = static_cast<int>(uniform(r, 70, 95));
      } else if (options.degrade) {
        text.rotation_deg = std::clamp(2.5 * r.normal(), -6.0, 6.0);
        const double weight = r.uniform();
        if (weight < 0.2)
          text.weight_px = uniform(r, 0.3, std::max(0.4, 0.08 * g.size_px));
        else if (weight < 0.4)
          text.weight_px = -uniform(r, 0.1, std::max(0.15, 0.025 * g.size_px));
        sheet.ink_gray = r.uniform() < 0.5 ? 0 : uniform(r, 0, 130);
        sheet.paper_gray = r.uniform() < 0.8 ? 255 : uniform(r, 200, 255);
        if (r.uniform() < 0.5) sheet.blur_sigma = uniform(r, 0.3, 1.0);
        if (r.uniform() < 0.5) sheet.gaussian_sigma = uniform(r, 2, 15);
        if (r.uniform() < 0.2) sheet.salt_pepper = uniform(r, 0.002, 0.02);
        if (r.uniform() < 0.5) sheet.jpeg_quality = static_cast<int>(uniform(r, 25, 95));
      }
      cv::Rect truth;
      if (label == no_glyph_class()) {
        sheet.strokes.push_back(random_mark(r, centre, g.size_px * 0.7));
        g.text.clear();
      } else {
        sheet.texts.push_back(text);
      }
      std::vector<std::vector<CharacterInk>> inks;
      const Image image = draw_sheet(sheet, &inks);
      if (label == no_glyph_class()) {
        truth = cv::Rect(0, 0, sheet.width, sheet.height);
      } else {
        if (inks.empty() || inks[0].empty()) {
          out.push_back(std::move(g));
          continue;
        }
        truth = inks[0][0].box;
      }
      const Paper paper = measure_paper(image);
      cv::Mat mask;
      cv::Rect box;
      if (extract(paper, truth, mask, box)) {
        g.found = true;
        g.patch = normalized_glyph(glyph_strength(paper, mask, box), mask);
        g.aspect = static_cast<double>(box.height) / box.width;
      }
      out.push_back(std::move(g));
    }
  return out;
}

}  // namespace geotruth::vision
