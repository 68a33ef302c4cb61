// The HTML writer's templates, embedded at build time from
// src/views/writers/html/*.mustache (cmake/embed_templates.cmake).
#pragma once

#include <string_view>
#include <vector>

namespace regscope {

struct EmbeddedTemplate {
  std::string_view name;  // the file's stem: "page", "partial_chart"
  std::string_view text;
};
const std::vector<EmbeddedTemplate> &htmlTemplates();

}  // namespace regscope
