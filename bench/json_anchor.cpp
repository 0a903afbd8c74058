// Anchor for scripts/bench's start-up row: the least a JSON-lines tool must do. Reads one line
// (a file, or standard input), parses it with nlohmann/json and writes it back.
//
// Usage: json_anchor [FILE]
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

int main(int argc, char** argv) {
  std::ifstream file;
  if (argc > 1) file.open(argv[1]);
  std::istream& in = argc > 1 ? file : std::cin;
  std::string line;
  std::getline(in, line);
  std::cout << nlohmann::json::parse(line).dump() << '\n';
}
