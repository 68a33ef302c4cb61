// `regscope kernels list` and `kernels run`: the reference cases, and the
// runner's verified timings joined with regscope's figures.
#include <cstdio>

#include "html_page.h"
#include "regscope/views/views.h"

namespace regscope {
namespace {

using nlohmann::json;

class ReferenceCasesView : public View {
 public:
  ReferenceCasesView(std::vector<ReferenceCase> cases, std::string dir)
      : cases_(std::move(cases)), dir_(std::move(dir)) {}

  Document document() const override {
    Table table;
    table.columns = {{"FAMILY", "family"},
                     {"CASE", "case"},
                     {"FILE", "file"},
                     {"", "kernel", false, Show::Data},
                     {"WHAT", "description"}};
    for (const ReferenceCase &c : cases_) table.add({c.family, c.name, c.file, c.kernel, c.description});
    return Document().table(std::move(table));
  }

  nlohmann::json toJson() const override {
    json list = json::array();
    for (const ReferenceCase &c : cases_)
      list.push_back({{"family", c.family},
                      {"name", c.name},
                      {"file", c.file},
                      {"kernel", c.kernel},
                      {"description", c.description}});
    return json{{"kernels_dir", dir_}, {"cases", list}};
  }

 private:
  std::vector<ReferenceCase> cases_;
  std::string dir_;
};

std::string fixed(double value, const char *format) {
  char text[32];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

class RunnerView : public View {
 public:
  RunnerView(json run, const Report *report) : run_(std::move(run)), report_(report) {}

  Document document() const override {
    const double copy = run_["copy_bandwidth_gbs"].get<double>();
    Document doc;
    doc.line(Line(run_["device"].get<std::string>() + " (" + run_["arch"].get<std::string>() + "): device copy " +
                  std::to_string(static_cast<int>(copy)) + " GB/s"));
    Table table;
    table.columns = {{"CASE", "case"},
                     {"TIME ms", "ms", true},
                     {"GB/s", "bandwidth_gbs", true},
                     {"%COPY", "copy_percent", true},
                     {"SPEEDUP", "speedup", true},
                     {"REGS", "registers", true},
                     {"SPILLS", "spills", true},
                     {"OCCUPANCY", "occupancy"},
                     {"CHECK", "check"}};
    for (const json &c : run_["cases"]) {
      const bool bw = !c["bandwidth_gbs"].is_null();
      auto optionalCount = [&](const char *key) {
        return c.contains(key) ? Cell::count(c[key].get<int>()) : Cell("-");
      };
      table.add({c["name"].get<std::string>(), fixed(c["ms"].get<double>(), "%.3f"),
                 bw ? Cell::count(static_cast<int>(c["bandwidth_gbs"].get<double>())) : Cell("-"),
                 bw ? Cell::count(static_cast<int>(100 * c["bandwidth_gbs"].get<double>() / copy)) : Cell("-"),
                 // "-": the family's baseline did not run
                 c["speedup"].is_number() ? fixed(c["speedup"].get<double>(), "%.2fx") : "-",
                 optionalCount("registers"), optionalCount("spills"), c.value("occupancy", std::string("-")),
                 c["verified"].get<bool>() ? "ok" : "WRONG: " + c["detail"].get<std::string>()});
    }
    return doc.table(std::move(table));
  }

  nlohmann::json toJson() const override { return run_; }

  nlohmann::json page() const override {
    json page = report_ ? reportSections(*report_) : json::object();
    page.update(documentPage(document(), "regscope kernels run"));
    return page;
  }

 private:
  json run_;
  const Report *report_;
};

}  // namespace

std::unique_ptr<View> referenceCasesView(const std::vector<ReferenceCase> &cases, std::string kernels_dir) {
  return std::make_unique<ReferenceCasesView>(cases, std::move(kernels_dir));
}

std::unique_ptr<View> runnerView(const nlohmann::json &run, const Report *report) {
  return std::make_unique<RunnerView>(run, report);
}

}  // namespace regscope
