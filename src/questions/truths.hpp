// Small constructors of a question's Truth shared by the evaluators.
#pragma once

#include <geotruth/questions.hpp>
#include <string>
#include <utility>

namespace geotruth::questions {

/// A question this build does not decide, with why: never a guess.
inline Truth unsupported(std::string reason) {
  Truth t;
  t.supported = false;
  t.reason = std::move(reason);
  return t;
}

}  // namespace geotruth::questions
