#include "text_table.h"

#include <algorithm>

namespace regscope {

TextTable::TextTable(std::vector<std::string> headers, std::vector<bool> right_aligned)
    : headers_(std::move(headers)), right_(std::move(right_aligned)) {
  right_.resize(headers_.size(), false);
  for (const std::string &header : headers_) width_.push_back(header.size());
}

void TextTable::measure(const std::vector<std::string> &cells) {
  for (std::size_t c = 0; c < cells.size() && c < width_.size(); ++c) width_[c] = std::max(width_[c], cells[c].size());
}

void TextTable::writeCells(std::ostream &out, const std::vector<std::string> &cells) const {
  static const std::string kEmpty;
  for (std::size_t c = 0; c < headers_.size(); ++c) {
    const std::string &cell = c < cells.size() ? cells[c] : kEmpty;
    const std::string pad(width_[c] - std::min(width_[c], cell.size()), ' ');
    if (c) out << "  ";
    if (right_[c])
      out << pad << cell;
    else
      out << cell << (c + 1 < headers_.size() ? pad : "");
  }
}

void TextTable::printRow(std::ostream &out, const std::vector<std::string> &cells) const {
  writeCells(out, cells);
  out << '\n';
}

void TextTable::printHeader(std::ostream &out, bool color) const {
  out << (color ? "\033[1m" : "");
  writeCells(out, headers_);
  out << (color ? "\033[0m" : "") << '\n';
}

}  // namespace regscope
