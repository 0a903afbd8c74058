// The fuzz targets' shared check: a scene read (from a record or a picture) writes and reads back
// as the same scene; else the input is a bug, and the process aborts naming what differs.
#pragma once

#include <geotruth/input.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace geotruth::fuzz {

// read_scene(write_scene(s)) == s: the written scene reads back as the same scene.
inline void check_round_trip(const Scene& scene) {
  const std::string text = write_scene(scene);
  const SceneOrError again = read_scene(text);
  if (const auto* error = std::get_if<InputError>(&again)) {
    std::fprintf(stderr, "round trip: the written scene does not read back: %s: %s\n%s\n", error->pointer.c_str(),
                 error->message.c_str(), text.c_str());
    std::abort();
  }
  const Scene& back = std::get<Scene>(again);
  if (back == scene) return;
  std::fprintf(stderr, "round trip: differs in%s%s%s%s%s%s%s%s%s\n%s\n", back.frame == scene.frame ? "" : " frame",
               back.points == scene.points ? "" : " points", back.lines == scene.lines ? "" : " lines",
               back.circles == scene.circles ? "" : " circles", back.shapes == scene.shapes ? "" : " shapes",
               back.entities == scene.entities ? "" : " entities", back.links == scene.links ? "" : " links",
               back.questions == scene.questions ? "" : " questions", back.id == scene.id ? "" : " id", text.c_str());
  std::abort();
}

}  // namespace geotruth::fuzz
