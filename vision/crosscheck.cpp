// Matches what the pixels show with what the scene says (vision/figure.cpp), in these steps, each in
// its own source under vision/crosscheck/ (checker.hpp holds the state they share):
//  1. read the picture (vision/paper.cpp): its paper, noise and ink, so that a light-gray stroke
//     on a noisy JPEG is judged at its own contrast; put the scene on it (register.cpp);
//  2. walk every stroke of the scene where the scene puts it (vision/trace.cpp, strokes.cpp) and
//     look for its ink within a tolerance that follows the drawing style: measured on the strokes
//     that match unambiguously, tight on clean pictures, wider on sketchy ones, never wide enough
//     to miss a shape drawn elsewhere;
//  3. match each category: lines, rounds, closed shapes, letters, arrowheads (categories.cpp);
//  4. run the blind detectors (vision/detect.cpp) on the ink no stroke of the scene explains: what
//     they find there is drawn but not in the scene (extras.cpp);
//  5. measure the gaps where the scene's strokes touch or nearly touch (gaps.cpp);
//  6. the verdict, here.
// Raw detector counts are never compared: every scene element is matched or named with the
// reason, and every unexplained detection is reported.
#include "vision/crosscheck/checker.hpp"

#include <opencv2/core.hpp>

#include <algorithm>
#include <map>

namespace geotruth::vision {
namespace check {

Checker::Checker(const Scene& scene, const Image& image, const CrossCheckOptions& options)
    : image_(image), options_(options), bands_(options_.bands, scene.frame), paper_(measure_paper(image)) {
  stroke_ = estimate_stroke_width();
  unlisted_circles_ = unlisted_reason(scene, "circles");
  unshown_letters_ = unshown_reason(scene, "letters");
  // Tick marks, angle arcs, arrowheads and text are not what a scene describes: an unexplained
  // detection must be a twentieth of the picture long (a line), or its radius a fiftieth of it
  // (a circle), to count.
  const double longer = std::max(image.width, image.height);
  min_extra_line_ = std::max(20.0, 0.05 * longer), min_extra_radius_ = std::max(6.0, 0.02 * longer);
  min_extra_stroke_ = std::max(16.0, 0.035 * longer);
  out_.picture.min_extra_radius_px = min_extra_radius_;
  // A frame drawn at a scale of its own (VisOnlyQA) is mapped by the picture's point dots; any
  // other frame fills the picture (own renderings) or is registered on its ink (users' pictures).
  if (!(scene.frame.px_per_unit && fit_dots(scene))) {
    bool fills = false;
    out_.scale = scale_for_image(scene.frame, image.width, image.height, fills);
    fig_ = build_figure(scene, image.width, image.height, out_.scale, {}, 0, options.dataset_picture);
    if (!fills) {
      out_.offset = register_offset();
      fig_ = build_figure(scene, image.width, image.height, out_.scale, out_.offset, 0, options.dataset_picture);
    }
  }
  evidence_.resize(fig_.curves.size());
  out_.dataset_picture = options.dataset_picture;
  out_.picture.background = paper_.background;
  out_.picture.noise_sigma = paper_.noise;
  out_.picture.ink_level = paper_.ink_level;
  out_.picture.stroke_px = stroke_;
}

CrossCheck Checker::run() {
  for (const auto& problem : fig_.problems)
    add(FindingKind::not_visible, {problem}, "no coordinates: cannot be drawn or checked", std::nullopt, {});
  check_placement();
  measure_wobble();
  judge_strokes();
  match_lines();
  match_rounds();
  match_closed_shapes();
  const std::size_t before_letters = out_.reasons.size();
  match_letters();
  const int unshown = note_unshown_letters(before_letters);
  match_arrowheads();
  find_extras();
  measure_gaps();
  std::erase_if(out_.counts, [](const auto& entry) { return entry.second.symbolic == 0 && entry.second.extra == 0; });
  for (const auto& [category, count] : out_.counts)
    if (count.symbolic != count.matched || count.extra > 0) {
      add(FindingKind::count_mismatch, {},
          category + ": " + std::to_string(count.symbolic) + " in the scene, " + std::to_string(count.matched) +
              " of them detected, " + std::to_string(count.extra) + " unexplained detections",
          std::nullopt, {});
      // Only letters the picture need not show are missing: no difference.
      if (category == "letters" && count.extra == 0 && count.symbolic - count.matched == unshown)
        out_.reasons.back().severity = Severity::note;
    }
  record_elements();
  out_.agree = std::none_of(out_.reasons.begin(), out_.reasons.end(),
                            [](const Reason& r) { return r.severity == Severity::conflict; });
  out_.doubtful = std::any_of(out_.reasons.begin(), out_.reasons.end(),
                              [](const Reason& r) { return r.severity == Severity::doubtful; });
  return std::move(out_);
}

void Checker::add(FindingKind kind, std::vector<std::string> elements, std::string detail,
                  std::optional<double> value_px, std::vector<P2> where) {
  Reason r;
  static_cast<Finding&>(r) = make_finding(kind, std::move(elements), std::move(detail), value_px);
  r.where = std::move(where);
  out_.reasons.push_back(std::move(r));
}

// --- per element: what the picture shows of it -------------------------------------------
void Checker::record_elements() {
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < fig_.curves.size(); ++i) {
    const Curve& c = fig_.curves[i];
    const CurveEvidence& e = evidence_[i];
    auto [it, fresh] = index.try_emplace(c.element, out_.elements.size());
    if (fresh) out_.elements.push_back({c.element, c.category, 1, 0, true, true});
    ElementEvidence& r = out_.elements[it->second];
    r.coverage = std::min(r.coverage, e.trace.coverage);
    r.contrast = fresh ? e.trace.contrast : std::min(r.contrast, e.trace.contrast);
    r.visible = r.visible && !e.hidden;
  }
  for (ElementEvidence& r : out_.elements)
    r.matched = r.visible && std::none_of(out_.reasons.begin(), out_.reasons.end(), [&](const Reason& reason) {
                  return reason.severity == Severity::conflict &&
                         std::count(reason.elements.begin(), reason.elements.end(), r.element);
                });
}

}  // namespace check

CrossCheck crosscheck(const Scene& scene, const Image& image, const CrossCheckOptions& options) {
  // One picture, one thread: the batches spread pictures over the cores (TBB), so OpenCV's own
  // thread pool would only oversubscribe them; and its parked threads at exit trip
  // LeakSanitizer's tracer now and then (scripts/sanitize).
  static const bool one_thread_each = (cv::setNumThreads(0), true);
  (void)one_thread_each;
  return check::Checker(scene, image, options).run();
}

}  // namespace geotruth::vision
