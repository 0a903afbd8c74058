#include <algorithm>
#include <cmath>
#include <cstdio>
#include <geotruth/bands.hpp>

namespace geotruth {

const char* decision_name(Decision decision) {
  switch (decision) {
    case Decision::holds:
      return "holds";
    case Decision::ambiguous:
      return "ambiguous";
    case Decision::fails:
      return "fails";
  }
  return "?";
}

void BandEvidence::add(double residual_px) {
  if (!(residual_px >= 0)) return;  // NaN or negative: not a residual
  ++count;
  if (residual_px == 0) ++exact;
  const double bin = std::floor(residual_px / kBinPx);
  bins[bin >= static_cast<double>(kBins - 1) ? kBins - 1 : static_cast<std::size_t>(bin)] += 1;
}

void BandEvidence::merge(const BandEvidence& other) {
  for (std::size_t i = 0; i < kBins; ++i) bins[i] += other.bins[i];
  count += other.count;
  exact += other.exact;
}

double BandEvidence::quantile(double q) const {
  if (count == 0) return 0;
  // The smallest bin edge below which at least q of the residuals lie, interpolated in its bin.
  const double wanted = q * static_cast<double>(count);
  double below = 0;
  for (std::size_t i = 0; i < kBins; ++i) {
    const double next = below + static_cast<double>(bins[i]);
    if (next >= wanted && bins[i] > 0) {
      const double within = (wanted - below) / static_cast<double>(bins[i]);
      return (static_cast<double>(i) + std::clamp(within, 0.0, 1.0)) * kBinPx;
    }
    below = next;
  }
  return static_cast<double>(kBins) * kBinPx;
}

Rational Bands::pixels_per_unit(const Frame& frame) const {
  const Rational longer = std::max(frame.width, frame.height);
  if (render_size_px > 0) return Rational(render_size_px) / longer;
  if (frame.px_per_unit) return *frame.px_per_unit;
  if (longer < 64) return Rational(640) / longer;
  return 1;
}

namespace {
Bands named(double eps_num, double eps_vis, std::string source, std::string reason) {
  Bands b;
  b.eps_num_px = eps_num;
  b.eps_vis_px = eps_vis;
  b.source = std::move(source);
  b.reason = std::move(reason);
  return b;
}
}  // namespace

bool hand_annotated(const std::string& dataset) {
  return dataset == "geometry3k" || dataset == "pgdp" || dataset == "ai2d";
}

Bands dataset_bands(const std::string& dataset) {
  if (hand_annotated(dataset))
    return named(1.5, 4, "dataset:" + dataset,
                 "hand-clicked positions are precise to a pixel or two: facts within 1.5 px hold, 4 px is a clear "
                 "miss");
  if (dataset == "visonlyqa")
    return named(0.5, 3, "dataset:visonlyqa",
                 "positions printed to 0.01 of the figure's units: rounding moves a point's distance to a line by up "
                 "to 0.015 units, so facts within max(0.5 px, 0.015 units) hold and 2.5 px beyond that (at least 3 px) "
                 "is a clear miss; estimates allow each point 0.0075 units (a point moves by up to 0.0071); pixels at "
                 "the picture's scale (the frame's px_per_unit: fitted on the picture with "
                 "--image, else the generator's smallest canvas, 512 px for 1.6 times the figure's extent)");
  if (dataset == "gepbench")
    return named(0.5, 3, "dataset:gepbench",
                 "synthetic shapes rounded to 1e-4 of the unit square (0.06 px at 640 px): the global default");
  return named(0.5, 3, "default", "exact or synthetic scenes: facts within 0.5 px hold, 3 px is visible");
}

Bands estimate_bands(const BandEvidence& evidence, const Bands& floor) {
  Bands out = floor;
  const double median = evidence.quantile(0.5);
  if (evidence.count < kMinResiduals || evidence.exact * 2 > evidence.count || median <= 0) {
    out.reason = "auto: " + std::to_string(evidence.count) + " residuals of declared facts" +
                 (evidence.count < kMinResiduals ? " (too few to estimate)" : ", most of them exactly 0") + "; kept " +
                 floor.source + " (" + floor.reason + ")";
    return out;
  }
  const double scale = median / 0.6745;  // σ of a half-normal with this median
  char buffer[320];
  std::snprintf(buffer, sizeof buffer,
                "auto: %zu residuals of declared facts, median %.2f px, 90th percentile %.2f px, 99th %.2f px; "
                "sigma %.2f px gives eps_num = max(%.2f, 2.5 sigma), eps_vis = max(%.2f, 5 sigma)",
                evidence.count, median, evidence.quantile(0.9), evidence.quantile(0.99), scale, floor.eps_num_px,
                floor.eps_vis_px);
  out.reason = buffer;
  if (2.5 * scale <= floor.eps_num_px && 5 * scale <= floor.eps_vis_px) {
    out.reason += "; the data is more precise than " + floor.source + ", which is kept";
    return out;
  }
  out.eps_num_px = std::max(floor.eps_num_px, 2.5 * scale);
  out.eps_vis_px = std::max(floor.eps_vis_px, 5 * scale);
  out.source = "auto";
  return out;
}

Bands Bands::for_gaps() const {
  Bands out = *this;
  if (gap_num_px > 0) out.eps_num_px = gap_num_px;
  if (gap_vis_px > 0) out.eps_vis_px = gap_vis_px;
  return out;
}

void estimate_gap_band(const BandEvidence& gaps, Bands& bands) {
  if (gaps.count < kMinResiduals) return;
  const double p90 = gaps.quantile(0.9);
  bands.gap_num_px = std::max(bands.eps_num_px, p90);
  bands.gap_vis_px = std::max(bands.eps_vis_px, 2 * p90);
  char buffer[200];
  std::snprintf(buffer, sizeof buffer,
                "%zu arrow gaps, median %.2f px, 90th percentile %.2f px: gaps up to the 90th percentile are the "
                "dataset's drawing style, twice it is clearly detached",
                gaps.count, gaps.quantile(0.5), p90);
  bands.gap_reason = buffer;
}

FrameBands::FrameBands(const Bands& bands, const Frame& frame) : bands_(&bands) {
  const Rational px = bands.pixels_per_unit(frame);
  px_per_unit_ = to_double(px);
  units_per_px_ = 1 / px;
  eps_num_ = bands.eps_num_px;
  eps_vis_ = bands.eps_vis_px;
  if (px != 1) eps_num_ *= units_per_px_, eps_vis_ *= units_per_px_;  // most frames are drawn at their size
  point_noise_ = eps_num_;
  if (frame.precision && *frame.precision > 0) {
    // Rounded positions (each coordinate off by up to half the step) move a point by up to
    // step/√2 (3/4 · step bounds it with a rational) and its distance to the line through two
    // others by up to √2 · step (3/2 · step). The ambiguous band keeps its width above that floor.
    const Rational reach = *frame.precision * Rational(3, 2), moved = *frame.precision * Rational(3, 4);
    if (point_noise_ < moved) point_noise_ = moved;
    if (eps_num_ < reach) {
      const Rational width = eps_vis_ - eps_num_;
      eps_num_ = reach;
      if (eps_vis_ < eps_num_ + width) eps_vis_ = eps_num_ + width;
    }
  }
  eps_num2_ = eps_num_ * eps_num_;
  eps_vis2_ = eps_vis_ * eps_vis_;
  eps_num_units_ = to_double(eps_num_);
  eps_vis_units_ = to_double(eps_vis_);
  eps_num_px_ = eps_num_units_ * px_per_unit_;
  eps_vis_px_ = eps_vis_units_ * px_per_unit_;
}

double FrameBands::to_px(const Rational& units) const {
  return to_double(units) * px_per_unit_;
}

double FrameBands::squared_to_px(const Rational& squared_units) const {
  return std::sqrt(to_double(squared_units)) * px_per_unit_;
}

Rational FrameBands::to_units(double px) const {
  return Rational(px) * units_per_px_;
}

Decision FrameBands::decide(const Rational& slack) const {
  return slack <= eps_num_ ? Decision::holds : slack < eps_vis_ ? Decision::ambiguous : Decision::fails;
}

Decision FrameBands::decide_squared(const Rational& slack2) const {
  return slack2 <= eps_num2_ ? Decision::holds : slack2 < eps_vis2_ ? Decision::ambiguous : Decision::fails;
}

Decision FrameBands::decide(int versus_eps_num, int versus_eps_vis) {
  return versus_eps_num <= 0 ? Decision::holds : versus_eps_vis < 0 ? Decision::ambiguous : Decision::fails;
}

Decision FrameBands::decide_px(double slack_px) const {
  return slack_px <= eps_num_px_ ? Decision::holds : slack_px < eps_vis_px_ ? Decision::ambiguous : Decision::fails;
}

std::optional<Decision> FrameBands::decide_filtered(double rough, double error) const {
  if (rough + error < eps_num_units_) return Decision::holds;
  if (rough - error > eps_num_units_ && rough + error < eps_vis_units_) return Decision::ambiguous;
  if (rough - error > eps_vis_units_) return Decision::fails;
  return std::nullopt;
}

bool FrameBands::clearly_fails(double rough) const {
  return rough * px_per_unit_ > 4 * eps_vis_px_ + 1;
}

}  // namespace geotruth
