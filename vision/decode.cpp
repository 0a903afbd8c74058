// Reading pictures: PNG through libpng and JPEG through libjpeg, strictly (a file cut short or
// damaged is an error, not a picture with a gray or blank bottom), with the size read from the
// header and refused before any pixel is decoded. Other formats go through OpenCV.
#include <cstddef>
#include <cstdio>

#include <jpeglib.h>
#include <png.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <geotruth/vision.hpp>
#include <optional>
#include <string>
#include <utility>

namespace geotruth::vision {
namespace {

std::string size_text(std::uint64_t width, std::uint64_t height) {
  return std::to_string(width) + " × " + std::to_string(height);
}

// The size check every reader makes from its header, before decoding.
bool too_large(std::uint64_t width, std::uint64_t height, const DecodeLimits& limits, std::string& error) {
  if (width == 0 || height == 0) {
    error = "an image of " + size_text(width, height) + " pixels";
    return true;
  }
  if (width > static_cast<std::uint64_t>(limits.max_side) || height > static_cast<std::uint64_t>(limits.max_side) ||
      width * height > limits.max_pixels) {
    error = "an image of " + size_text(width, height) + " pixels: larger than the limit of " +
            std::to_string(limits.max_pixels) + " pixels, at most " + std::to_string(limits.max_side) +
            " a side (refused before decoding)";
    return true;
  }
  return false;
}

// --- PNG ---------------------------------------------------------------------------------------
struct PngInput {
  const std::vector<std::uint8_t>* bytes;
  std::size_t at = 0;
};

void read_png_bytes(png_structp png, png_bytep out, png_size_t size) {
  auto* in = static_cast<PngInput*>(png_get_io_ptr(png));
  if (in->bytes->size() - in->at < size) png_error(png, "the file ends before the image does (truncated)");
  std::memcpy(out, in->bytes->data() + in->at, size);
  in->at += size;
}

struct PngMessages {
  std::string error;
};

Image decode_png(const std::vector<std::uint8_t>& bytes, const DecodeLimits& limits, std::string& error) {
  PngMessages messages;
  png_structp png = png_create_read_struct(
      PNG_LIBPNG_VER_STRING, &messages,
      [](png_structp p, png_const_charp message) {
        auto* m = static_cast<PngMessages*>(png_get_error_ptr(p));
        if (m->error.empty()) m->error = message;
        png_longjmp(p, 1);
      },
      [](png_structp, png_const_charp) {});  // warnings (ancillary chunks): not the pixels
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  Image image;
  PngInput input{&bytes};
  if (!info || setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, nullptr);
    error = "not a readable PNG: " + (messages.error.empty() ? std::string("out of memory") : messages.error);
    return {};
  }
  png_set_read_fn(png, &input, read_png_bytes);
  png_read_info(png, info);
  png_uint_32 width = 0, height = 0;
  int depth = 0, color = 0;
  png_get_IHDR(png, info, &width, &height, &depth, &color, nullptr, nullptr, nullptr);
  if (too_large(width, height, limits, error)) {
    png_destroy_read_struct(&png, &info, nullptr);
    return {};
  }
  // Everything to 8-bit RGBA, then alpha composited over white: transparent backgrounds are paper.
  png_set_expand(png);
  png_set_strip_16(png);
  png_set_gray_to_rgb(png);
  png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  std::vector<std::uint8_t> rgba(static_cast<std::size_t>(width) * height * 4);
  std::vector<png_bytep> rows(height);
  for (png_uint_32 y = 0; y < height; ++y) rows[y] = rgba.data() + static_cast<std::size_t>(y) * width * 4;
  png_read_image(png, rows.data());
  png_read_end(png, nullptr);
  png_destroy_read_struct(&png, &info, nullptr);
  image.width = static_cast<int>(width), image.height = static_cast<int>(height);
  image.rgb.resize(static_cast<std::size_t>(width) * height * 3);
  for (std::size_t i = 0, n = static_cast<std::size_t>(width) * height; i < n; ++i) {
    const unsigned alpha = rgba[4 * i + 3];
    for (int c = 0; c < 3; ++c)
      image.rgb[3 * i + c] = static_cast<std::uint8_t>((rgba[4 * i + c] * alpha + 255 * (255 - alpha) + 127) / 255);
  }
  return image;
}

// --- JPEG --------------------------------------------------------------------------------------
struct JpegReader {
  jpeg_error_mgr manager;
  std::jmp_buf jump;
  std::string error;
};

Image decode_jpeg(const std::vector<std::uint8_t>& bytes, const DecodeLimits& limits, std::string& error) {
  jpeg_decompress_struct jpeg;
  JpegReader reader;
  jpeg.err = jpeg_std_error(&reader.manager);
  reader.manager.error_exit = [](j_common_ptr info) {
    auto* r = reinterpret_cast<JpegReader*>(info->err);
    char text[JMSG_LENGTH_MAX];
    (*info->err->format_message)(info, text);
    r->error = text;
    std::longjmp(r->jump, 1);
  };
  // A warning is damaged data (libjpeg goes on with gray or repeated blocks): an error here.
  reader.manager.emit_message = [](j_common_ptr info, int level) {
    auto* r = reinterpret_cast<JpegReader*>(info->err);
    if (level < 0 && r->error.empty()) {
      char text[JMSG_LENGTH_MAX];
      (*info->err->format_message)(info, text);
      r->error = text;
    }
  };
  Image image;
  if (setjmp(reader.jump)) {
    jpeg_destroy_decompress(&jpeg);
    error = "not a readable JPEG: " + reader.error;
    return {};
  }
  jpeg_create_decompress(&jpeg);
  jpeg_mem_src(&jpeg, bytes.data(), static_cast<unsigned long>(bytes.size()));
  jpeg_read_header(&jpeg, TRUE);
  if (too_large(jpeg.image_width, jpeg.image_height, limits, error)) {
    jpeg_destroy_decompress(&jpeg);
    return {};
  }
  jpeg.out_color_space = JCS_RGB;
  jpeg_start_decompress(&jpeg);
  image.width = static_cast<int>(jpeg.output_width), image.height = static_cast<int>(jpeg.output_height);
  image.rgb.resize(static_cast<std::size_t>(image.width) * image.height * 3);
  while (jpeg.output_scanline < jpeg.output_height) {
    JSAMPROW row = image.rgb.data() + static_cast<std::size_t>(jpeg.output_scanline) * image.width * 3;
    jpeg_read_scanlines(&jpeg, &row, 1);
  }
  jpeg_finish_decompress(&jpeg);
  jpeg_destroy_decompress(&jpeg);
  if (!reader.error.empty()) {
    error = "a damaged JPEG: " + reader.error;
    return {};
  }
  return image;
}

// --- anything else OpenCV reads (BMP, TIFF, WebP, …) --------------------------------------------
Image decode_other(const std::vector<std::uint8_t>& bytes, const DecodeLimits& limits, std::string& error) {
  cv::Mat raw;
  try {
    raw = cv::imdecode(bytes, cv::IMREAD_UNCHANGED);
  } catch (const cv::Exception&) {
    raw = cv::Mat();
  }
  if (raw.empty()) {
    error = "not an image geotruth can read (PNG, JPEG, or what OpenCV reads: BMP, TIFF, WebP, …)";
    return {};
  }
  if (too_large(raw.cols, raw.rows, limits, error)) return {};
  if (raw.depth() != CV_8U) raw.convertTo(raw, CV_8U, raw.depth() == CV_16U ? 1.0 / 257 : 1.0);
  cv::Mat rgb;
  if (raw.channels() == 4) {  // composite over white: transparent backgrounds are paper
    std::vector<cv::Mat> ch;
    cv::split(raw, ch);
    cv::Mat alpha;
    ch[3].convertTo(alpha, CV_32F, 1.0 / 255);
    for (int c = 0; c < 3; ++c) {
      cv::Mat f;
      ch[c].convertTo(f, CV_32F);
      f = f.mul(alpha) + (1 - alpha) * 255;
      f.convertTo(ch[c], CV_8U);
    }
    cv::merge(std::vector<cv::Mat>{ch[2], ch[1], ch[0]}, rgb);
  } else if (raw.channels() == 3) {
    cv::cvtColor(raw, rgb, cv::COLOR_BGR2RGB);
  } else {
    cv::cvtColor(raw, rgb, cv::COLOR_GRAY2RGB);
  }
  Image image{rgb.cols, rgb.rows, {}};
  image.rgb.assign(rgb.data, rgb.data + rgb.total() * 3);
  return image;
}

// The size a PNG's IHDR or a JPEG's frame header declares, read from the bytes before any decoder
// sees them (libpng and libjpeg read on past the header before they return it).
std::optional<std::pair<std::uint64_t, std::uint64_t>> declared_size(const std::vector<std::uint8_t>& bytes, bool png) {
  auto big_endian = [&](std::size_t at, int n) {
    std::uint64_t v = 0;
    for (int k = 0; k < n; ++k) v = v << 8 | bytes[at + k];
    return v;
  };
  if (png) {
    if (bytes.size() < 24 || std::memcmp(bytes.data() + 12, "IHDR", 4) != 0) return std::nullopt;
    return std::make_pair(big_endian(16, 4), big_endian(20, 4));
  }
  // JPEG: markers from the start until a start-of-frame (SOF0–SOF15 but DHT, JPG and DAC).
  for (std::size_t at = 2; at + 4 <= bytes.size();) {
    if (bytes[at] != 0xff) return std::nullopt;
    const std::uint8_t marker = bytes[at + 1];
    if (marker == 0xff) {
      ++at;
      continue;
    }
    const std::size_t length = big_endian(at + 2, 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc) {
      if (at + 9 > bytes.size()) return std::nullopt;
      return std::make_pair(big_endian(at + 7, 2), big_endian(at + 5, 2));
    }
    if (marker == 0xda || length < 2) return std::nullopt;  // scan data before any frame header
    at += 2 + length;
  }
  return std::nullopt;
}

}  // namespace

Image decode(const std::vector<std::uint8_t>& bytes, std::string& error, const DecodeLimits& limits) {
  static const std::uint8_t kPng[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  const bool png = bytes.size() >= sizeof kPng && std::memcmp(bytes.data(), kPng, sizeof kPng) == 0;
  const bool jpeg = bytes.size() >= 3 && bytes[0] == 0xff && bytes[1] == 0xd8 && bytes[2] == 0xff;
  if (png || jpeg)
    if (const auto size = declared_size(bytes, png); size && too_large(size->first, size->second, limits, error))
      return {};
  if (png) return decode_png(bytes, limits, error);
  if (jpeg) return decode_jpeg(bytes, limits, error);
  if (bytes.empty()) {
    error = "an empty file";
    return {};
  }
  return decode_other(bytes, limits, error);
}

}  // namespace geotruth::vision
