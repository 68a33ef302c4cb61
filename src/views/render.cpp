// One switch from a format to its writer.
#include <sstream>

#include "regscope/support/error.h"
#include "regscope/views/view.h"
#include "writers/writers.h"

namespace regscope {
namespace {

struct FormatName {
  Format format;
  const char *name;
};
constexpr FormatName kFormats[] = {{Format::Text, "text"},         {Format::Json, "json"},   {Format::Csv, "csv"},
                                   {Format::Markdown, "markdown"}, {Format::Sarif, "sarif"}, {Format::Github, "github"},
                                   {Format::Junit, "junit"},       {Format::Html, "html"}};

}  // namespace

std::string dumpJson(const nlohmann::json &document) {
  return document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

void View::writeJson(std::ostream &out) const { out << dumpJson(toJson()) << '\n'; }

const char *formatName(Format format) {
  for (const FormatName &f : kFormats)
    if (f.format == format) return f.name;
  return "?";
}

std::optional<Format> formatByName(const std::string &name) {
  for (const FormatName &f : kFormats)
    if (name == f.name) return f.format;
  return std::nullopt;
}

bool isCiFormat(Format format) {
  return format == Format::Sarif || format == Format::Github || format == Format::Junit;
}

std::string render(const View &view, Format format, const RenderOptions &options) {
  std::ostringstream out;
  render(view, format, options, out);
  return out.str();
}

void render(const View &view, Format format, const RenderOptions &options, std::ostream &out) {
  std::optional<CiReport> ci = isCiFormat(format) || format == Format::Markdown ? view.ci() : std::nullopt;
  if (isCiFormat(format) && !ci)
    throw Error(std::string("--format ") + formatName(format) + " is not available for this command");
  switch (format) {
    case Format::Text:
      writeText(view.document(), out, options);
      break;
    case Format::Json:
      view.writeJson(out);
      break;
    case Format::Csv:
      writeCsv(view.document(), out);
      break;
    case Format::Markdown:
      if (ci)
        writeCiMarkdown(*ci, out);
      else
        writeMarkdown(view.document(), out);
      break;
    case Format::Sarif:
      writeSarif(*ci, options, out);
      break;
    case Format::Github:
      writeGithub(*ci, out);
      break;
    case Format::Junit:
      writeJunit(*ci, out);
      break;
    case Format::Html:
      writeHtml(view.page(), out);
      break;
  }
}

}  // namespace regscope
