// The HTML writer: a page document (View::page()) through the Mustache
// templates embedded from writers/html/. kainjow's Mustache escapes every
// {{value}} for HTML (& < > " '); the templates use no triple braces, so no
// name, path or source line reaches the page unescaped.
#include <kainjow/mustache.hpp>

#include "html_templates.h"
#include "regscope/support/error.h"
#include "writers.h"

namespace regscope {
namespace {

using kainjow::mustache::data;
using kainjow::mustache::mustache;

// JSON -> Mustache data. Null and false are false (a section that does not
// render); numbers print as JSON prints them. Each list `x` of an object
// also gets `has_x`, so a template can wrap a non-empty list in a heading
// (Mustache has no test for that of its own).
data toData(const nlohmann::json &j) {
  switch (j.type()) {
    case nlohmann::json::value_t::object: {
      data d{data::type::object};
      for (auto it = j.begin(); it != j.end(); ++it) {
        d.set(it.key(), toData(it.value()));
        if (it.value().is_array()) d.set("has_" + it.key(), data(!it.value().empty()));
      }
      return d;
    }
    case nlohmann::json::value_t::array: {
      data d{data::type::list};
      for (const nlohmann::json &item : j) d.push_back(toData(item));
      return d;
    }
    case nlohmann::json::value_t::string:
      return data(j.get<std::string>());
    case nlohmann::json::value_t::boolean:
      return data(j.get<bool>());
    case nlohmann::json::value_t::null:
    case nlohmann::json::value_t::discarded:
      return data(false);
    default:
      return data(j.dump());
  }
}

}  // namespace

void writeHtml(const nlohmann::json &page, std::ostream &out) {
  data root = toData(page);
  std::string page_text;
  // Partials are named partial_*: no key of the page document starts so, so
  // a partial can never be looked up in the data (a name there would become a template).
  for (const EmbeddedTemplate &t : htmlTemplates()) {
    if (t.name == "page")
      page_text = std::string(t.text);
    else
      root.set(std::string(t.name), data(std::string(t.text)));
  }
  mustache tmpl{page_text};
  if (!tmpl.is_valid()) throw Error("internal error: the HTML template is invalid: " + tmpl.error_message());
  tmpl.render(root, out);
  if (!tmpl.is_valid()) throw Error("internal error: the HTML template failed: " + tmpl.error_message());
}

}  // namespace regscope
