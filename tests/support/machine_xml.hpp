#pragma once
// Small hwloc XML topologies written by tests (the hostile-XML unit tests and the robustness rows of `cosched topo`):
// a one-core, one-node machine as hwloc 2 exports it, with the NUMA node's attributes and children chosen.
#include <string>

namespace cosched::test {

// The four sets every object of the machine carries (a one-PU, one-node machine).
inline const std::string kMachineXmlSets =
    R"(cpuset="0x1" complete_cpuset="0x1" nodeset="0x1" complete_nodeset="0x1")";

// `numa_attributes` replaces the NUMA node's sets and size, `numa_children` are its elements (page types),
// `inside_machine` comes before the PU.
[[nodiscard]] inline std::string machine_xml(const std::string& numa_attributes, const std::string& inside_machine = "",
                                             const std::string& numa_children = "") {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n"
         "<topology version=\"2.0\">\n<object type=\"Machine\" os_index=\"0\" " + kMachineXmlSets +
         " allowed_cpuset=\"0x1\" allowed_nodeset=\"0x1\">\n" + inside_machine +
         "<object type=\"PU\" os_index=\"0\" " + kMachineXmlSets + "/>\n"
         "<object type=\"NUMANode\" os_index=\"0\" " + numa_attributes +
         (numa_children.empty() ? "/>" : ">" + numa_children + "</object>") + "\n</object>\n</topology>\n";
}

// `depth` Group objects nested in one another (hwloc's import recurses once per level).
[[nodiscard]] inline std::string nested_groups(int depth) {
  std::string groups;
  for (int i = 0; i < depth; ++i) groups += R"(<object type="Group" cpuset="0x1" complete_cpuset="0x1">)";
  for (int i = 0; i < depth; ++i) groups += "</object>";
  return groups + "\n";
}

}  // namespace cosched::test
