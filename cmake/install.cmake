# Installation: the bus and accelerator libraries, their headers, the device
# files and a CMake package, so that another SystemC virtual platform can
# `find_package(ai8xsim)` and put the accelerator on its own bus
# (README.md, "Embedding the model"; testbench/embed/ is such a consumer).
include(CMakePackageConfigHelpers)

set(AI8XSIM_INSTALL_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/ai8xsim")

# Consumers spell them ai8xsim::tlm and ai8xsim::model.
set_target_properties(ai8xsim_tlm PROPERTIES EXPORT_NAME tlm)
set_target_properties(ai8xsim_model PROPERTIES EXPORT_NAME model)
install(TARGETS ai8xsim_tlm ai8xsim_model
  EXPORT ai8xsimTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})

# Headers keep the paths the code includes them by ("model/accelerator.h").
foreach(area tlm model)
  install(DIRECTORY ${CMAKE_SOURCE_DIR}/${area}/
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ai8xsim/${area}
    FILES_MATCHING PATTERN "*.h")
endforeach()

# The register names generated from the device description (tools/reggen.cpp).
install(FILES ${AI8XSIM_REGISTERS_DIR}/cnn.h ${AI8XSIM_REGISTERS_DIR}/soc.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ai8xsim/registers)

install(DIRECTORY ${CMAKE_SOURCE_DIR}/configs/
  DESTINATION ${AI8XSIM_INSTALL_DATA_DIR}/configs
  FILES_MATCHING PATTERN "*.yaml")

install(EXPORT ai8xsimTargets
  NAMESPACE ai8xsim::
  DESTINATION ${AI8XSIM_INSTALL_CMAKE_DIR})

configure_package_config_file(
  ${CMAKE_SOURCE_DIR}/cmake/ai8xsimConfig.cmake.in
  ${CMAKE_BINARY_DIR}/ai8xsimConfig.cmake
  INSTALL_DESTINATION ${AI8XSIM_INSTALL_CMAKE_DIR}
  PATH_VARS AI8XSIM_INSTALL_DATA_DIR)
write_basic_package_version_file(
  ${CMAKE_BINARY_DIR}/ai8xsimConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${CMAKE_BINARY_DIR}/ai8xsimConfig.cmake
  ${CMAKE_BINARY_DIR}/ai8xsimConfigVersion.cmake
  DESTINATION ${AI8XSIM_INSTALL_CMAKE_DIR})
