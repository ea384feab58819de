// SWF files, plain or gzip-compressed (the Parallel Workloads Archive ships them as .swf.gz).
#include <zlib.h>

#include <fmt/format.h>

#include <array>
#include <filesystem>
#include <system_error>

#include "cosched/common/error.hpp"
#include "cosched/common/text_file.hpp"
#include "cosched/online/swf.hpp"

namespace cosched::online {

namespace {

bool has_gzip_magic(std::string_view bytes) noexcept {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

class Inflater {
 public:
  explicit Inflater(const std::string& source) {
    // 16 + MAX_WBITS: a gzip wrapper (header and CRC-32 trailer), the full 32 KiB window.
    if (inflateInit2(&stream_, 16 + MAX_WBITS) != Z_OK) throw ResourceError(source + ": zlib could not start");
  }
  ~Inflater() { inflateEnd(&stream_); }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  z_stream& stream() noexcept { return stream_; }

 private:
  z_stream stream_{};
};

// The decompressed bytes of a gzip file, member after member, at most kMaxSwfBytes.
std::string gunzip(std::string_view bytes, const std::string& source) {
  if (bytes.size() > kMaxSwfBytes) {
    throw InputError(source, fmt::format("{} compressed bytes, at most {}", bytes.size(), kMaxSwfBytes));
  }
  Inflater inflater(source);
  z_stream& stream = inflater.stream();
  // zlib's interface takes non-const input; it only reads it.
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  stream.avail_in = static_cast<uInt>(bytes.size());
  std::string text;
  std::array<char, 1 << 16> buffer{};
  while (true) {
    stream.next_out = reinterpret_cast<Bytef*>(buffer.data());
    stream.avail_out = static_cast<uInt>(buffer.size());
    const int status = inflate(&stream, Z_NO_FLUSH);
    text.append(buffer.data(), buffer.size() - stream.avail_out);
    if (text.size() > kMaxSwfBytes) {
      throw InputError(source, fmt::format("decompresses to more than {} bytes", kMaxSwfBytes));
    }
    if (status == Z_STREAM_END) {
      const std::string_view rest(reinterpret_cast<const char*>(stream.next_in), stream.avail_in);
      if (rest.empty()) return text;
      if (!has_gzip_magic(rest)) {
        throw InputError(source, fmt::format("corrupt gzip file: {} bytes after the end of the compressed data",
                                             rest.size()));
      }
      inflateReset(&stream);  // the next member of a concatenation (`cat a.gz b.gz`)
      continue;
    }
    if (status == Z_OK) continue;
    if (status == Z_BUF_ERROR && stream.avail_in == 0) {
      throw InputError(source, "corrupt gzip file: the compressed data ends early (truncated file?)");
    }
    throw InputError(source, fmt::format("corrupt gzip file: {}", stream.msg != nullptr ? stream.msg : zError(status)));
  }
}

}  // namespace

SwfTrace read_swf_bytes(std::string_view bytes, const std::string& source) {
  if (has_gzip_magic(bytes)) return parse_swf(gunzip(bytes, source), source);
  return parse_swf(bytes, source);
}

SwfTrace load_swf(const std::filesystem::path& path) {
  std::error_code error;
  const auto size = std::filesystem::file_size(path, error);
  if (!error && size > kMaxSwfBytes) {
    throw InputError(path.string(), fmt::format("{} bytes, at most {}", size, kMaxSwfBytes));
  }
  return read_swf_bytes(read_text_file(path, "SWF trace"), path.string());
}

}  // namespace cosched::online
