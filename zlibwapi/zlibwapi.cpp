// zlibwapi.dll has no code of its own: it is zlib, linked whole (see
// CMakeLists.txt). A library target needs one source file.
