// Reading scenes: limits, errors that name where and what, and the normalized writer.
#pragma once

#include <cstddef>
#include <geotruth/scene.hpp>
#include <geotruth/work_limit.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace geotruth {

/// Resource limits that turn pathological input into errors instead of hangs.
struct Limits {
  std::size_t max_elements = 100'000;      ///< items in all top-level arrays of a scene
  std::size_t max_line_bytes = 16u << 20;  ///< one JSONL line (or one .json file)
  std::size_t max_depth = 64;              ///< JSON nesting depth
  WorkLimits work;                         ///< what one scene may cost once read (and a picture, to be read)
};

/// Why a record could not be read. `pointer` is an RFC 6901 JSON pointer into the record
/// ("" for the whole record); `message` says what was found and what was expected.
struct InputError {
  std::string pointer;
  std::string message;
};

using SceneOrError = std::variant<Scene, InputError>;

/// Parses one scene from its JSON text (docs/format.md) and validates it (validate()). Never
/// throws on bad input: every problem comes back as an InputError naming the place and the
/// expectation.
SceneOrError read_scene(std::string_view json_text, const Limits& limits = {});

/// Checks what a scene means, whatever its source (the reader, every importer, the generators):
/// unique ids, lines of two distinct ends, positive radii and axes, polygons of non-zero area,
/// sectors of a non-zero angle modulo 360°, stars of 3–1000 points, spirals whose radius stays
/// non-negative, non-degenerate boxes, known relation names and elements, numbers a double can
/// hold. The error's pointer is into the native scene.
std::optional<InputError> validate(const Scene& scene);

/// The normalized scene as compact JSON: defaults filled in, numbers exact (JSON numbers when
/// a double round-trips them, else strings "p/q"). read_scene(write_scene(s)) == s.
std::string write_scene(const Scene& scene);

}  // namespace geotruth
