// A minimal aligned-column table for the terminal printers.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace regscope {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> headers, std::vector<bool> right_aligned = {});
  void addRow(std::vector<std::string> cells);
  // `bold` wraps the header in ANSI bold when colour is on.
  void print(std::ostream &out, bool color) const;

 private:
  std::vector<std::string> headers_;
  std::vector<bool> right_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace regscope
