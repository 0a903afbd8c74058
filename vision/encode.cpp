// Image files: PNG through libpng, JPEG through libjpeg(-turbo), without OpenCV, so that render
// needs only cairo and these two (geotruth-render.so).
#include <cstddef>
#include <cstdio>

#include <jpeglib.h>
#include <png.h>

#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <geotruth/vision.hpp>
#include <stdexcept>

namespace geotruth::vision {
namespace {

void append_png_bytes(png_structp png, png_bytep data, png_size_t size) {
  auto* bytes = static_cast<std::vector<std::uint8_t>*>(png_get_io_ptr(png));
  bytes->insert(bytes->end(), data, data + size);
}

// PNG set for speed: no per-row filter search and zlib's fastest level. A line drawing on white
// compresses well without them, and any reader opens the result.
std::vector<std::uint8_t> encode_png(const Image& image) {
  std::vector<std::uint8_t> bytes;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!info || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    throw std::runtime_error("cannot encode a PNG image");
  }
  png_set_write_fn(png, &bytes, append_png_bytes, nullptr);
  png_set_IHDR(png, info, static_cast<png_uint_32>(image.width), static_cast<png_uint_32>(image.height), 8,
               PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
  png_set_compression_level(png, 1);
  png_write_info(png, info);
  for (int y = 0; y < image.height; ++y)
    png_write_row(png, image.rgb.data() + static_cast<std::size_t>(y) * image.width * 3);
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return bytes;
}

// libjpeg reports errors by calling error_exit, which must not return: back to the setjmp.
struct JpegErrors {
  jpeg_error_mgr manager;
  std::jmp_buf jump;
};

// JPEG with libjpeg's defaults at the given quality (what OpenCV's writer did: the same bytes).
std::vector<std::uint8_t> encode_jpeg(const Image& image, int quality) {
  std::vector<std::uint8_t> bytes;
  jpeg_compress_struct jpeg;
  JpegErrors errors;
  jpeg.err = jpeg_std_error(&errors.manager);
  errors.manager.error_exit = [](j_common_ptr info) {
    std::longjmp(reinterpret_cast<JpegErrors*>(info->err)->jump, 1);
  };
  unsigned char* buffer = nullptr;
  unsigned long size = 0;
  if (setjmp(errors.jump)) {
    jpeg_destroy_compress(&jpeg);
    std::free(buffer);
    throw std::runtime_error("cannot encode a JPEG image");
  }
  jpeg_create_compress(&jpeg);
  jpeg_mem_dest(&jpeg, &buffer, &size);
  jpeg.image_width = static_cast<JDIMENSION>(image.width);
  jpeg.image_height = static_cast<JDIMENSION>(image.height);
  jpeg.input_components = 3;
  jpeg.in_color_space = JCS_RGB;
  jpeg_set_defaults(&jpeg);
  jpeg_set_quality(&jpeg, std::clamp(quality, 0, 100), TRUE);
  jpeg_start_compress(&jpeg, TRUE);
  while (jpeg.next_scanline < jpeg.image_height) {
    JSAMPROW row =
        const_cast<JSAMPLE*>(image.rgb.data() + static_cast<std::size_t>(jpeg.next_scanline) * image.width * 3);
    jpeg_write_scanlines(&jpeg, &row, 1);
  }
  jpeg_finish_compress(&jpeg);
  bytes.assign(buffer, buffer + size);
  jpeg_destroy_compress(&jpeg);
  std::free(buffer);
  return bytes;
}

}  // namespace

std::vector<std::uint8_t> encode(const Image& image, ImageFormat format, int quality) {
  return format == ImageFormat::png ? encode_png(image) : encode_jpeg(image, quality);
}

}  // namespace geotruth::vision
