# Install and export rules: find_package(sweep CONFIG REQUIRED) + target_link_libraries(app PRIVATE sweep::sweep).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS sweep EXPORT sweepTargets)
install(DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}/include/sweep" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(EXPORT sweepTargets NAMESPACE sweep:: DESTINATION "${CMAKE_INSTALL_LIBDIR}/cmake/sweep")

configure_package_config_file(
  "${CMAKE_CURRENT_SOURCE_DIR}/cmake/sweepConfig.cmake.in"
  "${CMAKE_CURRENT_BINARY_DIR}/sweepConfig.cmake"
  INSTALL_DESTINATION "${CMAKE_INSTALL_LIBDIR}/cmake/sweep")
write_basic_package_version_file(
  "${CMAKE_CURRENT_BINARY_DIR}/sweepConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion
  ARCH_INDEPENDENT)
install(FILES
  "${CMAKE_CURRENT_BINARY_DIR}/sweepConfig.cmake"
  "${CMAKE_CURRENT_BINARY_DIR}/sweepConfigVersion.cmake"
  "${CMAKE_CURRENT_SOURCE_DIR}/cmake/SweepFindCCCL.cmake"
  DESTINATION "${CMAKE_INSTALL_LIBDIR}/cmake/sweep")
