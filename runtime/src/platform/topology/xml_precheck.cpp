#include "platform/topology/xml_precheck.hpp"

#include <fmt/core.h>
#include <fcntl.h>
#include <libxml/xmlreader.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <cstdint>
#include <memory>
#include <string_view>

#include "cosched/common/error.hpp"
#include "cosched/platform/topology.hpp"

namespace cosched::platform::topology_detail {

namespace {

// The numeric attributes hwloc reads with strtoul/strtoull, which accept "-5" (wrapping to 2^64 - 5), saturate
// "1e30" to 2^64 - 1 and read "lots" as 0. The sizes and counts are what the tier classifier and `topo` use.
struct NumericAttribute {
  std::string_view element;
  std::string_view attribute;
  std::uint64_t limit;
  std::string_view what;
  std::uint64_t minimum = 0;  // a page size of 0 bytes describes no page (hwloc writes 0 for no count, not size)
};
constexpr std::uint64_t kMaxIndex = (std::uint64_t{1} << 31) - 1;
constexpr std::array kNumericAttributes{
    NumericAttribute{"object", "local_memory", kMaxTopologyBytes, "a memory size in bytes"},
    NumericAttribute{"object", "cache_size", kMaxTopologyBytes, "a cache size in bytes"},
    NumericAttribute{"object", "cache_linesize", kMaxTopologyBytes, "a cache line size in bytes"},
    NumericAttribute{"object", "os_index", kMaxIndex, "an OS index"},
    NumericAttribute{"object", "gp_index", kMaxIndex, "an object index"},
    NumericAttribute{"object", "depth", static_cast<std::uint64_t>(kMaxTopologyXmlDepth), "a cache level"},
    NumericAttribute{"page_type", "size", kMaxTopologyBytes, "a page size in bytes", 1},
    NumericAttribute{"page_type", "count", kMaxTopologyBytes, "a page count"},
    NumericAttribute{"memattr_value", "value", kMaxTopologyBytes, "a memory attribute value"},
    NumericAttribute{"distances", "nbobjs", kMaxIndex, "an object count"},
    NumericAttribute{"distances2", "nbobjs", kMaxIndex, "an object count"},
};

struct ReaderDeleter {
  void operator()(xmlTextReader* reader) const { xmlFreeTextReader(reader); }
};
struct FdOwner {
  explicit FdOwner(int fd_) : fd(fd_) {}
  int fd;
  FdOwner(const FdOwner&) = delete;
  FdOwner& operator=(const FdOwner&) = delete;
  ~FdOwner() {
    if (fd >= 0) ::close(fd);
  }
};
struct XmlStringDeleter {
  void operator()(xmlChar* text) const { xmlFree(text); }
};

std::string_view text_of(const xmlChar* text) {
  return text == nullptr ? std::string_view{} : std::string_view(reinterpret_cast<const char*>(text));
}

// libxml2 reports errors through a callback; the reader keeps the first one, with its line, for the exception.
struct FirstError {
  std::string message;
  int line = 0;
};
void keep_first_error(void* first, const char* message, xmlParserSeverities severity,
                      xmlTextReaderLocatorPtr locator) {
  auto& kept = *static_cast<FirstError*>(first);
  if ((severity == XML_PARSER_SEVERITY_ERROR || severity == XML_PARSER_SEVERITY_VALIDITY_ERROR) &&
      kept.message.empty()) {
    kept.message = message == nullptr ? "unknown error" : message;
    while (!kept.message.empty() && (kept.message.back() == '\n' || kept.message.back() == ' ')) {
      kept.message.pop_back();
    }
    kept.line = xmlTextReaderLocatorLineNumber(locator);
  }
}

void check_numeric_attributes(xmlTextReader* reader, std::string_view element, const std::string& where) {
  for (const NumericAttribute& numeric : kNumericAttributes) {
    if (numeric.element != element) continue;
    const std::unique_ptr<xmlChar, XmlStringDeleter> raw(
        xmlTextReaderGetAttribute(reader, reinterpret_cast<const xmlChar*>(numeric.attribute.data())));
    if (!raw) continue;
    const std::string_view value = text_of(raw.get());
    std::uint64_t number = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
    const bool digits_only = !value.empty() && value.front() != '+' && end == value.data() + value.size();
    if (!digits_only || error != std::errc{} || number > numeric.limit || number < numeric.minimum) {
      throw InputError(where, fmt::format("<{}> {}=\"{}\" must be {}: a decimal integer in [{}, {}]", element,
                                          numeric.attribute, value, numeric.what, numeric.minimum, numeric.limit));
    }
  }
}

}  // namespace

void precheck_topology_xml(const std::string& path) {
  // Opened here so that an unreadable file is one error of ours, not libxml2's words on stderr.
  const FdOwner file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (file.fd < 0) throw InputError(path, fmt::format("cannot be read ({})", std::strerror(errno)));
  // No DTD loading, no network, no entity substitution: the file is data, nothing it names is fetched.
  const std::unique_ptr<xmlTextReader, ReaderDeleter> reader(
      xmlReaderForFd(file.fd, path.c_str(), nullptr, XML_PARSE_NONET));
  if (!reader) throw ResourceError(fmt::format("{}: no memory for an XML reader", path));
  FirstError first_error;
  xmlTextReaderSetErrorHandler(reader.get(), keep_first_error, &first_error);
  bool numa_node_seen = false;
  for (;;) {
    const int status = xmlTextReaderRead(reader.get());
    if (status == 0) break;
    if (status < 0 || !first_error.message.empty()) {
      const int line = first_error.line > 0 ? first_error.line : xmlTextReaderGetParserLineNumber(reader.get());
      throw InputError(fmt::format("{}:{}", path, line),
                       "is not well-formed XML: " + (first_error.message.empty() ? "unknown error" : first_error.message));
    }
    if (xmlTextReaderNodeType(reader.get()) != XML_READER_TYPE_ELEMENT) continue;
    // The element's own line: the parser reads ahead of the node the reader is on.
    const std::string where = fmt::format("{}:{}", path, xmlGetLineNo(xmlTextReaderCurrentNode(reader.get())));
    // The reader's depth counts from <topology> (0); hwloc's import recurses once per level.
    if (xmlTextReaderDepth(reader.get()) > kMaxTopologyXmlDepth) {
      throw InputError(where, fmt::format("elements nested more than {} deep: no machine has that many levels "
                                          "(hwloc would overflow its stack reading them)",
                                          kMaxTopologyXmlDepth));
    }
    const std::string_view element = text_of(xmlTextReaderConstLocalName(reader.get()));
    check_numeric_attributes(reader.get(), element, where);
    if (element == "object" && !numa_node_seen) {
      const std::unique_ptr<xmlChar, XmlStringDeleter> type(
          xmlTextReaderGetAttribute(reader.get(), reinterpret_cast<const xmlChar*>("type")));
      numa_node_seen = text_of(type.get()) == "NUMANode";
    }
  }
  // hwloc refuses such a file with its own line on stderr before ours (issue 41): said here, once.
  if (!numa_node_seen) {
    throw InputError(path, "holds no NUMANode object: a topology needs at least one memory node (lstopo --of xml "
                           "writes one for every machine)");
  }
}

}  // namespace cosched::platform::topology_detail
