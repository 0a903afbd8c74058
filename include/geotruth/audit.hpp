// Auditing: a verdict for every question, findings for every scene.
#pragma once

#include <cstdint>
#include <functional>
#include <geotruth/findings.hpp>
#include <geotruth/input.hpp>
#include <geotruth/questions.hpp>
#include <optional>
#include <string>
#include <vector>

namespace geotruth {

enum class Verdict { ok, wrong, ambiguous, invalid, unsupported };
const char* verdict_name(Verdict verdict);

/// Why a verdict is what it is, in plain words. `kind` is one of: unsupported, no_truth,
/// missing_answer, answer_out_of_range, duplicate_options, close_options, ambiguous_fact,
/// no_correct_option, several_correct_options, wrong_answer; and engine_note (information: where the
/// dataset's generator rule and the picture differ, see Truth::notes).
struct Reason {
  std::string kind;
  std::string detail;
  std::optional<double> slack_px;
};

struct QuestionVerdict {
  std::string question;
  std::string kind;                  ///< "ask/of" or "ask/relation", e.g. "count/triangles", "which/left_of"
  std::string text;                  ///< the question as the dataset wrote it, when it did
  std::string template_name;         ///< the dataset's template, when the importer matched one
  std::vector<std::string> options;  ///< as the dataset wrote them
  Verdict verdict = Verdict::ok;
  std::string truth;      ///< the right option's letter (or the value when there are no options)
  std::string annotated;  ///< the answer as annotated
  std::vector<Reason> reasons;
};

/// Judges one question against its truth, in this order: unsupported; invalid for the
/// question's own form (no answer, an answer letter out of range, duplicate options, numeric
/// `size` options closer than ε_vis on the rendered image); invalid when no truth exists;
/// ambiguous when the truth rests on an ambiguous fact that can change which option is right;
/// invalid when no option or several options are right; wrong when the annotated answer is not
/// the right one; else ok.
QuestionVerdict judge(const Question& question, const Truth& truth, const FrameBands& bands);

struct SceneAudit {
  std::vector<QuestionVerdict> verdicts;
  std::vector<Finding> findings;  ///< incidences, shapes, diagrams, the canvas
  std::string difficulty;         ///< Tangram difficulty for figures with points, else ""
  std::string content_hash;       ///< of the normalized scene without its id: equal for duplicates
};

/// What the dataset's own picture of a scene shows (the vision cross-check, run by the caller on
/// the picture its dataset releases): the cross-check's findings, each naming the elements it is
/// about (none for ink the scene does not explain), and the picture's file. A picture that could
/// not be found or read is one finding (picture_unavailable).
struct PictureEvidence {
  std::string image;
  std::vector<Finding> findings;
  /// A frame drawn at a scale of its own (Frame::px_per_unit): the scale fitted on the picture (its
  /// questions are then judged at it), and the fit in one line (or why there is none).
  std::optional<double> px_per_unit;
  std::string mapping;
  std::vector<std::uint8_t>
      overlay_png;  ///< the picture with the scene and every finding marked, when there are findings
};

/// The dataset's own picture of a scene, found by the scene's id or its name in its source
/// (`source_key`) and cross-checked (the command line loads the vision module for it: audit
/// --image, filter --image). It must be callable from several threads at once.
using PictureCheck = std::function<PictureEvidence(const Scene& scene, const std::string& source_key)>;

/// A scene's truth from its picture alone (docs/reader.md): the scene read from the dataset's
/// picture of `scene` (found by its id or `source_key`), with the scene's id and questions, or an
/// InputError naming the picture that is missing or cannot be read. Callable from several threads.
using PictureReader = std::function<SceneOrError(const Scene& scene, const std::string& source_key)>;

/// The reading of an item's picture drawn over it, as PNG (vision::reading_overlay): `read` is the
/// scene a PictureReader read from the picture of `item` (found as the reader finds it). Empty when
/// there is no picture to draw on. Callable from several threads.
using ReadingOverlay =
    std::function<std::vector<std::uint8_t>(const Scene& item, const Scene& read, const std::string& source_key)>;

/// Whether a scene describes anything to compute a truth from (points, lines, circles, shapes,
/// entities, links, arrows, layers): an item with only a picture and questions (VisOnlyQA's real
/// files) does not, and is answered from its picture when one is given.
bool has_description(const Scene& scene);

/// What audit_scene may be given besides the scene and its bands.
struct AuditContext {
  /// The dataset's picture of the scene (audit --image): its findings join the scene's, and a
  /// question is judged by what the picture shows as well (below).
  const PictureEvidence* picture = nullptr;
  /// Filled with each question's truth, in the order of scene.questions: the generator certifies
  /// that none is ambiguous without evaluating the questions twice.
  std::vector<Truth>* truths = nullptr;
  /// One made for this scene and these bands: the questions are evaluated with it and reuse what
  /// it has already built.
  SceneEvaluator* evaluator = nullptr;
};

/// With a picture, its findings join the scene's, and a question is ambiguous when its answer
/// rests on what the picture lacks, hides or contradicts: when its answer changes with an element
/// the picture does not show where the scene puts it (not_visible, not_detected, low_contrast: the
/// scene without it), when one of its facts is about such an element or about a gap the picture
/// cannot show (pixel_ambiguous, pixel_disagreement), or, for counting, existence and reference
/// questions, when the picture draws a shape the scene does not (extra_detection).
/// A scene read from a picture (`import --from picture`) is judged at the picture's own band, from
/// its strokes, unless `bands` was fixed by option (source "option").
SceneAudit audit_scene(const Scene& scene, const Bands& bands = {}, const AuditContext& context = {});

}  // namespace geotruth
