#include <algorithm>
#include <cmath>
#include <geotruth/audit.hpp>
#include <geotruth/counts.hpp>
#include <geotruth/diagram_findings.hpp>
#include <geotruth/input.hpp>
#include <memory>
#include <optional>
#include "batch/fnv1a.hpp"

#include "core/exact_json.hpp"
#include "core/px_text.hpp"
#include "questions/picture_doubts.hpp"
#include "questions/shapes.hpp"

namespace geotruth {

const char* verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::ok:
      return "ok";
    case Verdict::wrong:
      return "wrong";
    case Verdict::ambiguous:
      return "ambiguous";
    case Verdict::invalid:
      return "invalid";
    case Verdict::unsupported:
      return "unsupported";
  }
  return "?";
}

namespace {

std::string quoted(const std::string& s) {
  return "\"" + s + "\"";
}

std::string letters_of(const std::vector<std::size_t>& indices) {
  std::string out;
  for (std::size_t k = 0; k < indices.size(); ++k)
    out += (k == 0 ? "" : k + 1 == indices.size() ? " and " : ", ") + option_letter(indices[k]);
  return out;
}

// Checks of the question's own form, before any truth: empty when it is well formed.
std::vector<Reason> form_problems(const Question& q, const FrameBands& bands) {
  std::vector<Reason> out;
  if (q.answer.empty()) out.push_back({"missing_answer", "the question has no annotated answer"});
  if (!q.options.empty() && !q.answer.empty()) {
    const bool letter = q.answer.size() == 1 && q.answer[0] >= 'A' && q.answer[0] <= 'Z';
    if (letter && static_cast<std::size_t>(q.answer[0] - 'A') >= q.options.size())
      out.push_back({"answer_out_of_range", "annotated answer " + quoted(q.answer) + " is not one of A–" +
                                                option_letter(q.options.size() - 1)});
  }
  for (std::size_t i = 0; i < q.options.size(); ++i)
    for (std::size_t j = i + 1; j < q.options.size(); ++j) {
      Question pair;
      pair.options = {q.options[i]};
      Truth same;
      same.values = {q.options[j]};
      if (!matching_options(pair, same).empty())
        out.push_back({"duplicate_options", "options " + option_letter(i) + " and " + option_letter(j) +
                                                " are the same (" + quoted(q.options[i]) + ")"});
    }
  if (q.ask == "size") {
    // Numeric sizes closer than the visual threshold cannot be told apart in the picture:
    // lengths by their difference, areas by the side of a square of their difference.
    for (std::size_t i = 0; i < q.options.size(); ++i)
      for (std::size_t j = i + 1; j < q.options.size(); ++j) {
        const auto a = parse_rational_string(q.options[i]).value, b = parse_rational_string(q.options[j]).value;
        if (!a || !b || *a == *b) continue;
        const Rational diff = abs(*a - *b);
        const double px = q.measure == "area" ? bands.squared_to_px(diff) : bands.to_px(diff);
        const bool close =
            q.measure == "area" ? bands.decide_squared(diff) != Decision::fails : bands.decide(diff) != Decision::fails;
        if (close)
          out.push_back({"close_options",
                         "options " + option_letter(i) + " and " + option_letter(j) + " differ by " + px_text(px) +
                             " on the rendered image, below the " + px_text(bands.eps_vis_px()) + " visual threshold",
                         px});
      }
  }
  return out;
}

// The facts a wrong verdict's truth rests on, as its reasons ("because").
void add_decisive(const Truth& truth, QuestionVerdict& v) {
  for (const auto& f : truth.facts)
    if (f.decisive) v.reasons.push_back({"because", f.detail, f.slack_px});
}

}  // namespace

QuestionVerdict judge(const Question& q, const Truth& truth, const FrameBands& bands) {
  QuestionVerdict v;
  v.question = q.id;
  v.kind = question_kind(q);
  v.text = q.text;
  v.template_name = q.template_name;
  v.options = q.options;
  v.annotated = q.answer;
  auto finish = [&](Verdict verdict) {
    v.verdict = verdict;
    return v;
  };
  if (!truth.supported) {
    v.reasons.push_back({"unsupported", truth.reason});
    return finish(Verdict::unsupported);
  }
  const auto right = matching_options(q, truth);
  if (right.size() == 1)
    v.truth = option_letter(right[0]);
  else if (q.options.empty() && !truth.values.empty())
    v.truth = truth.values.front();
  v.reasons = form_problems(q, bands);
  if (!v.reasons.empty()) return finish(Verdict::invalid);
  if (truth.values.empty() && !truth.reason.empty()) {
    v.reasons.push_back({"no_truth", truth.reason});
    return finish(Verdict::invalid);
  }
  for (const auto& f : truth.facts)
    if (fact_changes_answer(q, truth, f)) {
      std::string elements;
      for (const auto& e : f.elements)
        if (!e.empty()) elements += (elements.empty() ? "" : ", ") + e;
      // A fact that is a finding (a link the drawing contradicts, a shape its picture draws
      // otherwise) is named by its kind; a measured fact near its threshold is ambiguous_fact.
      if (finding_kind_named(f.kind))
        v.reasons.push_back({f.kind, elements + ": " + f.detail, f.slack_px});
      else
        v.reasons.push_back({"ambiguous_fact",
                             f.kind + " (" + elements + "): " + f.detail +
                                 (f.slack_px ? ", " + px_text(*f.slack_px) : std::string()) +
                                 " — too close to call at this resolution",
                             f.slack_px});
    }
  const std::size_t facts_end = v.reasons.size();
  for (const auto& note : truth.notes) v.reasons.push_back({"engine_note", note});
  if (facts_end > 0) return finish(Verdict::ambiguous);
  std::string value_text;
  for (const auto& value : truth.values) value_text += (value_text.empty() ? "" : ", ") + value;
  if (q.options.empty()) {
    Question as_option = q;
    as_option.options = {q.answer};
    if (matching_options(as_option, truth).empty()) {
      v.reasons.push_back({"wrong_answer", "annotated " + quoted(q.answer) + " but the truth is " + value_text});
      add_decisive(truth, v);
      return finish(Verdict::wrong);
    }
    return finish(Verdict::ok);
  }
  if (right.empty()) {
    v.reasons.push_back({"no_correct_option", "the truth (" + (value_text.empty() ? std::string("none") : value_text) +
                                                  ") is not among the options"});
    return finish(Verdict::invalid);
  }
  if (right.size() > 1) {
    v.reasons.push_back({"several_correct_options", "options " + letters_of(right) + " are all correct"});
    return finish(Verdict::invalid);
  }
  const bool letter = q.answer.size() == 1 && q.answer[0] >= 'A' && q.answer[0] <= 'Z';
  const bool matches = letter ? q.answer == v.truth : q.options[right[0]] == q.answer;
  if (!matches) {
    const std::size_t annotated_index = letter ? static_cast<std::size_t>(q.answer[0] - 'A') : q.options.size();
    const std::string annotated_value =
        annotated_index < q.options.size() ? " (" + q.options[annotated_index] + ")" : std::string();
    v.reasons.push_back({"wrong_answer", "annotated " + q.answer + annotated_value + " but the truth is " + v.truth +
                                             " (" + q.options[right[0]] + ")"});
    add_decisive(truth, v);
    return finish(Verdict::wrong);
  }
  return finish(Verdict::ok);
}

namespace {

void canvas_findings(const Scene& scene, const FrameBands& bands, std::vector<Finding>& out) {
  const Rational &w = scene.frame.width, &h = scene.frame.height;
  auto outside = [&](const Rational& x, const Rational& y) {
    const Rational dx = x < 0 ? Rational(-x) : x > w ? Rational(x - w) : Rational(0);
    const Rational dy = y < 0 ? Rational(-y) : y > h ? Rational(y - h) : Rational(0);
    return Rational(dx * dx + dy * dy);
  };
  for (const auto& p : scene.points)
    if (p.at)
      if (const Rational d2 = outside(p.at->x, p.at->y); d2 > 0)
        out.push_back(make_finding(FindingKind::off_canvas, {p.id}, "point " + p.id + " lies outside the frame",
                                   bands.squared_to_px(d2)));
  // A scene traced from a picture (arrow outlines, entity outlines or labels: AI2D) shows what was
  // visible there: its boxes are not checked for size against the band, which measures tracing.
  const bool traced =
      !scene.arrows.empty() || std::any_of(scene.entities.begin(), scene.entities.end(),
                                           [](const Entity& e) { return !e.polygon.empty() || !e.labels.empty(); });
  for (const auto& e : scene.entities) {
    const Rational d2 = std::max(outside(e.box[0], e.box[1]), outside(e.box[2], e.box[3]));
    if (d2 > 0)
      out.push_back(make_finding(FindingKind::off_canvas, {e.id}, "entity " + e.id + "'s box reaches outside the frame",
                                 bands.squared_to_px(d2)));
    const Rational size = std::min(e.box[2] - e.box[0], e.box[3] - e.box[1]);
    if (!traced && bands.decide(size) != Decision::fails)
      out.push_back(make_finding(FindingKind::too_small, {e.id}, "entity " + e.id + "'s box is too small to see",
                                 bands.to_px(size)));
  }
  // A circle is a dot when its diameter is within the visual threshold.
  for (std::size_t c = 0; c < scene.circles.size(); ++c)
    if (const auto r2 = radius_squared(scene, scene.circles[c]);
        r2 && bands.decide_squared(4 * *r2) != Decision::fails) {
      const std::string name = circle_name(scene, c);
      out.push_back(make_finding(FindingKind::too_small, {name}, name + " has a radius too small to see",
                                 bands.squared_to_px(*r2)));
    }
}

}  // namespace

namespace {

// The scene without one element, as a picture lacking it shows it: a shape, circle, line or link
// taken away, a point's letter unwritten. Nullopt for an element the scene has no such name for.
std::optional<Scene> without_element(const Scene& scene, const std::string& name) {
  Scene out = scene;
  const auto before = out.shapes.size() + out.circles.size() + out.lines.size() + out.links.size();
  std::erase_if(out.shapes, [&](const Shape& s) { return s.id == name; });
  for (std::size_t c = scene.circles.size(); c-- > 0;)
    if (circle_name(scene, c) == name) out.circles.erase(out.circles.begin() + static_cast<std::ptrdiff_t>(c));
  // A line by the cross-check's name for its stroke, or by the audit's ("line A-B").
  std::erase_if(out.lines, [&](const Line& l) {
    return stroke_name(scene, l) == name ||
           (l.id.empty() && line_name(scene.points[l.through.front()].id, scene.points[l.through.back()].id) == name);
  });
  std::erase_if(out.links, [&](const Link& l) { return link_name(l) == name; });
  bool letter = false;
  for (Point& p : out.points)
    if (p.id == name && p.labelled) p.labelled = false, letter = true;
  const auto after = out.shapes.size() + out.circles.size() + out.lines.size() + out.links.size();
  if (after == before && !letter) return std::nullopt;
  return out;
}

// The picture's findings on a question's verdict (audit_scene's rules): an ok or wrong answer
// becomes ambiguous, with each finding it rests on as a reason.
struct Lacking {
  const Finding* finding;
  std::unique_ptr<Scene> scene;
  std::unique_ptr<SceneEvaluator> evaluator;
};

void judge_by_picture(const Question& q, const Truth& truth, const PictureEvidence& picture,
                      std::vector<Lacking>& lacking, QuestionVerdict& v) {
  if (v.verdict != Verdict::ok && v.verdict != Verdict::wrong) return;
  std::vector<const Finding*> rests_on;
  // Something drawn the scene lacks can change a count, an existence or a reference; a named
  // polygon's sides and an estimate's measures are the named points' (the scene's), and only a
  // diameter or radius asks about any drawn circle.
  const bool counting = ((q.ask == "count" || q.ask == "exists") && q.vertices.empty()) || q.ask == "reference" ||
                        q.ask == "diameter" || q.ask == "radius";
  for (const Finding& f : picture.findings) {
    if (f.kind == FindingKind::count_mismatch || f.severity == Severity::note) continue;
    // A fact about the finding's elements: all of them (a gap between two strokes is about the pair).
    const bool about_facts =
        !f.elements.empty() && std::any_of(truth.facts.begin(), truth.facts.end(), [&](const Fact& fact) {
          return std::all_of(f.elements.begin(), f.elements.end(), [&](const std::string& e) {
            return std::count(fact.elements.begin(), fact.elements.end(), e) > 0;
          });
        });
    if ((f.kind == FindingKind::extra_detection && counting) || f.kind == FindingKind::picture_unavailable ||
        about_facts)
      rests_on.push_back(&f);
  }
  // The scene without an element the picture lacks: does the answer change?
  for (Lacking& l : lacking)
    if (std::find(rests_on.begin(), rests_on.end(), l.finding) == rests_on.end() &&
        answers_differ(q, truth, l.evaluator->evaluate(q)))
      rests_on.push_back(l.finding);
  if (rests_on.empty()) return;
  v.verdict = Verdict::ambiguous;
  std::vector<Reason> reasons;
  for (const Finding* f : rests_on) {
    std::string elements;
    for (const auto& e : f->elements) elements += (elements.empty() ? "" : ", ") + e;
    reasons.push_back({finding_kind_name(f->kind),
                       "the picture" + (picture.image.empty() ? std::string() : " (" + picture.image + ")") + ": " +
                           (elements.empty() ? std::string() : elements + ": ") + f->detail,
                       f->slack_px});
  }
  // The picture's reasons first: they decide; the scene's own (a wrong answer) follow.
  reasons.insert(reasons.end(), v.reasons.begin(), v.reasons.end());
  v.reasons = std::move(reasons);
}

}  // namespace

bool has_description(const Scene& scene) {
  return !scene.points.empty() || !scene.lines.empty() || !scene.circles.empty() || !scene.shapes.empty() ||
         !scene.entities.empty() || !scene.links.empty() || !scene.arrows.empty() || !scene.layers.empty();
}

SceneAudit audit_scene(const Scene& scene, const Bands& run_bands, const AuditContext& context) {
  const std::optional<Bands> picture_band = picture_bands(scene, run_bands);
  const Bands& bands = picture_band ? *picture_band : run_bands;
  SceneAudit out;
  std::optional<SceneEvaluator> own;
  SceneEvaluator& evaluator = context.evaluator ? *context.evaluator : own.emplace(scene, bands);
  const PictureEvidence* picture = context.picture;
  const FrameBands frame_bands(bands, scene.frame);
  // Each element the picture does not show where the scene puts it: the scene without it is what
  // the picture shows.
  std::vector<Lacking> lacking;
  if (picture)
    for (const Finding& f : picture->findings) {
      if (f.elements.size() != 1 || (f.kind != FindingKind::not_visible && f.kind != FindingKind::not_detected &&
                                     f.kind != FindingKind::low_contrast))
        continue;
      if (auto without = without_element(scene, f.elements.front())) {
        auto alternative = std::make_unique<Scene>(std::move(*without));
        auto alternative_evaluator = std::make_unique<SceneEvaluator>(*alternative, bands, false);
        lacking.push_back({&f, std::move(alternative), std::move(alternative_evaluator)});
      }
    }
  for (const auto& q : scene.questions) {
    Truth truth = evaluator.evaluate(q);
    out.verdicts.push_back(judge(q, truth, frame_bands));
    if (picture) judge_by_picture(q, truth, *picture, lacking, out.verdicts.back());
    if (context.truths) context.truths->push_back(std::move(truth));
  }
  if (!scene.points.empty() || !scene.lines.empty()) {
    const Incidence& incidence = evaluator.incidence();
    out.difficulty = evaluator.tangram_counts().difficulty;
    out.findings = incidence.findings;
  }
  if (!scene.entities.empty())
    for (auto& f : diagram_findings(scene, bands)) out.findings.push_back(std::move(f));
  if (!scene.shapes.empty())
    for (auto& f : questions::shape_findings(scene, bands)) out.findings.push_back(std::move(f));
  canvas_findings(scene, frame_bands, out.findings);
  for (auto& f : picture_doubt_findings(scene)) out.findings.push_back(std::move(f));
  if (picture)
    for (const Finding& f : picture->findings)
      if (f.kind != FindingKind::count_mismatch) out.findings.push_back(f);
  Scene anonymous = scene;
  anonymous.id.clear();
  out.content_hash = fnv1a(write_scene(anonymous));
  return out;
}

}  // namespace geotruth
