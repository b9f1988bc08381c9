#pragma once
// What a kept answer was worked out from, and how the caches check it again:
// every cache of the store (detection, activations, the host compiler, the
// GPU code cache's folder listings) keeps, beside an answer, the stamp of
// each path it looked at, and trusts the answer only while all of them hold.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace cudaenv {

namespace records {
class Fields;
}

// mtime:ctime:identity[:size] of a path, in hex ("-" when it is absent): a
// file put back with its old mtime and size (`cp -p`, `rsync -a`, `tar x`)
// still has a new ctime and inode.
std::string path_stamp(const std::filesystem::path& p);
std::string path_stamp(const std::string& utf8);

// (UTF-8 path, path_stamp) pairs: what a kept result was worked out from.
using Stamps = std::vector<std::pair<std::string, std::string>>;

// A record's fields for `key`: its count, then each path and its stamp.
void put_stamps(std::vector<std::string>& fields, const Stamps& key);
// Reads what put_stamps wrote into `read` (cleared first); true when every
// path's stamp is still the one kept. Throws std::out_of_range on a damaged
// record, as records::Fields does.
bool stamps_hold(records::Fields& f, Stamps& read);
bool stamps_hold(records::Fields& f);

}  // namespace cudaenv
