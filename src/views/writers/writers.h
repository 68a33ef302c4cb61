// The writers behind render(): each turns a Document (or CI findings) into
// one format. None parses or computes anything.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "regscope/describe/document.h"
#include "regscope/views/view.h"

namespace regscope {

void writeText(const Document &doc, std::ostream &out, const RenderOptions &options);
void writeCsv(const Document &doc, std::ostream &out);
void writeMarkdown(const Document &doc, std::ostream &out);

void writeCiMarkdown(const CiReport &ci, std::ostream &out);
void writeSarif(const CiReport &ci, const RenderOptions &options, std::ostream &out);
void writeGithub(const CiReport &ci, std::ostream &out);
void writeJunit(const CiReport &ci, std::ostream &out);

// One self-contained HTML file from a page document (View::page()), through
// the templates embedded from writers/html/.
void writeHtml(const nlohmann::json &page, std::ostream &out);

}  // namespace regscope
