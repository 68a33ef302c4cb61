// A minimal aligned-column table for the terminal printers. Its rows are
// given twice, never held: once to measure the columns, once to print them,
// so a table of 100,000 kernels is not kept a second time as text.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace regscope {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> headers, std::vector<bool> right_aligned = {});
  // Widens the columns to hold `cells` (missing cells are empty).
  void measure(const std::vector<std::string> &cells);
  // The header (bold when `color`), then rows, each padded to the measured widths.
  void printHeader(std::ostream &out, bool color) const;
  void printRow(std::ostream &out, const std::vector<std::string> &cells) const;

 private:
  void writeCells(std::ostream &out, const std::vector<std::string> &cells) const;  // one line, no newline
  std::vector<std::string> headers_;
  std::vector<bool> right_;
  std::vector<std::size_t> width_;
};

}  // namespace regscope
