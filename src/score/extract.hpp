// Reading a model's answer out of its free-text response (docs/score.md, "Extraction").
#pragma once

#include <geotruth/scene.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace geotruth::score {

/// How an answer was found: after an answer marker ("the answer is …"), as the last standalone
/// option letter, as an option's text, as a number, given with the response (the dataset's own
/// reading of it, published beside it: VisOnlyQA's y_pred), or not at all.
enum class Method { marker, letter, text, number, given, none };
const char* method_name(Method method);

struct Extracted {
  Method method = Method::none;
  std::optional<std::size_t> option;  ///< the chosen option (questions with options)
  std::string value;                  ///< the chosen value (questions without options)
};

/// The answer in `response` to `question`, by the first rule that finds one:
///  1. marker: the text after the last "answer is" / "answer:" / "option is" / "choice is" (any
///     case, up to the end of its line) that names an answer by rules 2–4, the first it names;
///  2. letter: the last standalone option letter (A, B, … as many as there are options; "(b)" in
///     lower case), not touching a letter, digit or hyphen ("AB", "3D", "A-B" are no letters) and
///     not the article ("A circle", "A is" is a letter). In a scene whose points are named by
///     single capital letters (`point_letters`), a letter counts only after a marker, as the whole
///     response ("B", "(B).") or as "B." / "B)" opening it: "points A, B and D" names points;
///  3. text: the option whose text (or its part before " (": "quadrilateral (rectangle
///     excluded)") occurs last as a whole phrase, any case; at one place the longer option wins;
///  4. number (questions whose options are numbers, or counting questions without options): the
///     last number, in digits or as a word from zero to twenty, equal to an option as a number.
/// A question without options takes the number (or, when its answer is not a number, the text
/// after the marker or else the whole trimmed response) as its value.
Extracted extract_answer(std::string_view response, const Question& question, const std::set<char>& point_letters = {});

/// An answer given as text beside the response (the dataset's own reading): the option whose text
/// it is (any case, trimmed), else the option of that letter ("c": the third); its `value` is the
/// text as given, which a question without one right option compares as text.
Extracted given_answer(std::string_view answer, const Question& question);

}  // namespace geotruth::score
