// A scene from its JSON text, for tests: a text that does not read is a test failure naming the
// JSON pointer and the reason.
#pragma once

#include <gtest/gtest.h>

#include <geotruth/input.hpp>
#include <string>
#include <variant>

namespace geotruth {

inline Scene scene_of(const std::string& json) {
  auto parsed = read_scene(json);
  if (const auto* error = std::get_if<InputError>(&parsed)) ADD_FAILURE() << error->pointer << ": " << error->message;
  return std::get<Scene>(parsed);
}

}  // namespace geotruth
