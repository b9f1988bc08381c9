#pragma once
// What the export formats share (src/export/*.cpp only): the mark every
// exported file carries, the words that describe a pair, and each format's
// entry points for the table in formats.cpp.
#include <string>
#include <vector>

#include "export/options.hpp"
#include "export/vars.hpp"

namespace cudaenv::exporting {

// Every file export writes carries this, so a later export knows it may
// replace the file and leaves every other file alone.
inline constexpr const char* marker = "cudaenv export: written by `cudaenv export";

// Whether the file at `p` (followed through links) carries the marker near its start.
bool written_by_us(const std::filesystem::path& p);
// "CUDA 12.4.131 (/opt/cuda) with cuDNN 9.1.0 (/opt/cudnn)".
std::string describe(const PairVars& p);
// "last `cudaenv check`: pass ..." or "... never checked".
std::string check_line(const PairVars& p);
// The one line on stderr that says what an export wrote.
void say_wrote(const std::string& what, const std::filesystem::path& where);

std::string render_lmod(const PairVars& p, const Options& o);
std::string write_lmod(const std::vector<PairVars>& pairs, const Options& o);
std::string render_tcl(const PairVars& p, const Options& o);
std::string write_tcl(const std::vector<PairVars>& pairs, const Options& o);
std::string render_preset(const PairVars& p, const Options& o);
std::string write_presets(const std::vector<PairVars>& pairs, const Options& o);
std::string render_dotenv(const PairVars& p, const Options& o);
std::string write_dotenv(const std::vector<PairVars>& pairs, const Options& o);
std::string render_github_env(const PairVars& p, const Options& o);
std::string write_github_env(const std::vector<PairVars>& pairs, const Options& o);
std::string render_cdi_device(const PairVars& p, const Options& o);
std::string write_cdi(const std::vector<PairVars>& pairs, const Options& o);
std::string write_dockerfile(const std::vector<PairVars>& pairs, const Options& o);
std::string render_msbuild(const PairVars& p, const Options& o);
std::string write_msbuild(const std::vector<PairVars>& pairs, const Options& o);

}  // namespace cudaenv::exporting
