// geotruth._geotruth: the C++ side of the Python package. Every function takes scenes as JSON
// text (geotruth/__init__.py turns dicts into text), calls the same record builders as the
// command line (src/records/, audit_record, src/score/) with the GIL released, and hands back
// Python objects built straight from the records.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <geotruth/bands.hpp>
#include <geotruth/generate.hpp>
#include <geotruth/incidence.hpp>
#include <geotruth/version.hpp>
#include <geotruth/vision.hpp>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <unordered_map>

#include "audit/run.hpp"
#include "batch/run_bands.hpp"
#include "records/records.hpp"
#include "score/extract.hpp"
#include "score/score.hpp"

namespace py = pybind11;
using namespace geotruth;

namespace {

// geotruth.Error (defined in __init__.py), set once at import.
py::object& error_class() {
  static py::object* cls = new py::object();  // never destroyed: outlives the interpreter's teardown
  return *cls;
}

// An InputError on its way to Python as geotruth.Error(message, pointer, file, line).
struct RecordError {
  InputError error;
  std::string file;
  std::size_t line = 0;
};

[[noreturn]] void raise_error(const InputError& error, const std::string& file = "", std::size_t line = 0) {
  throw RecordError{error, file, line};
}

// Object keys as Python strings, made once: records repeat the same few keys.
PyObject* key_of(const std::string& key) {
  static auto* keys = new std::unordered_map<std::string, py::object>();  // GIL held; never freed
  auto it = keys->find(key);
  if (it == keys->end()) it = keys->emplace(key, py::str(key)).first;
  return it->second.ptr();
}

py::object to_python(const ordered_json& j) {
  switch (j.type()) {
    case ordered_json::value_t::null:
      return py::none();
    case ordered_json::value_t::boolean:
      return py::bool_(j.get<bool>());
    case ordered_json::value_t::number_integer:
      return py::int_(j.get<std::int64_t>());
    case ordered_json::value_t::number_unsigned:
      return py::int_(j.get<std::uint64_t>());
    case ordered_json::value_t::number_float:
      return py::float_(j.get<double>());
    case ordered_json::value_t::string:
      return py::str(j.get_ref<const std::string&>());
    case ordered_json::value_t::array: {
      py::list out(j.size());
      for (std::size_t k = 0; k < j.size(); ++k) out[k] = to_python(j[k]);
      return out;
    }
    case ordered_json::value_t::object: {
      py::dict out;
      for (const auto& [key, value] : j.items())
        if (PyDict_SetItem(out.ptr(), key_of(key), to_python(value).ptr()) != 0) throw py::error_already_set();
      return out;
    }
    default:
      return py::none();
  }
}

Limits limits_from(const py::dict& given) {
  Limits limits;
  for (const auto& [key, value] : given) {
    const std::string name = py::str(key);
    if (name == "max_elements")
      limits.max_elements = value.cast<std::size_t>();
    else if (name == "max_line_bytes")
      limits.max_line_bytes = value.cast<std::size_t>();
    else if (name == "max_depth")
      limits.max_depth = value.cast<std::size_t>();
    else if (name == "max_pairs")
      limits.work.max_pairs = value.cast<std::uint64_t>();
    else if (name == "max_seconds")
      limits.work.max_seconds = value.cast<double>();
    else if (name == "max_output_bytes")
      limits.work.max_output_bytes = value.cast<std::size_t>();
    else
      throw py::type_error("unknown limit \"" + name +
                           "\" (max_elements, max_line_bytes, max_depth, max_pairs, max_seconds, max_output_bytes)");
  }
  return limits;
}

// The scene of one text, or geotruth.Error.
Scene read_one(const std::string& text, const Limits& limits) {
  SceneOrError parsed = read_scene(text, limits);
  if (auto* error = std::get_if<InputError>(&parsed)) raise_error(*error);
  return std::get<Scene>(std::move(parsed));
}

// The band for one scene when none is given: its dataset's documented default.
Bands bands_for(const Scene& scene, const std::optional<Bands>& given) {
  return given ? *given : dataset_bands(dataset_of(scene));
}

// Runs `build` on the scene of `text` without the GIL, within the work limit, and converts its
// record.
template <typename Build>
py::object record_of(const std::string& text, const py::dict& limit_options, Build&& build) {
  const Limits limits = limits_from(limit_options);
  ordered_json record;
  {
    py::gil_scoped_release released;
    const Scene scene = read_one(text, limits);
    try {
      const WorkBudget budget(limits.work);
      record = build(scene);
    } catch (const InputError& limit) {
      raise_error(limit);
    }
  }
  return to_python(record);
}

// Where the records of an iteration come from: files through their importer, or Python texts.
class Source {
 public:
  Source(std::vector<std::string> paths, const std::string& format, const std::string& categories, const Limits& limits)
      : limits_(limits), paths_(std::move(paths)), format_(format), categories_(categories) {
    const auto f = source_format_named(format);
    if (!f)
      throw py::value_error("unknown format \"" + format +
                            "\" (native, geometry3k, pgdp, linelist, gepbench, ai2d, visonlyqa)");
    stream_.emplace(paths_, ImportSource(*f, categories), limits);
  }
  Source(py::iterator texts, const Limits& limits) : limits_(limits), texts_(std::move(texts)) {}

  /// The next record (GIL held); false at the end. A Python exception in the caller's iterator
  /// propagates.
  bool next(StreamItem& item) {
    if (stream_) return stream_->next(item);
    PyObject* next = PyIter_Next(texts_.ptr());
    if (!next) {
      if (PyErr_Occurred()) throw py::error_already_set();
      return false;
    }
    const py::object text = py::reinterpret_steal<py::object>(next);
    item = StreamItem{};
    item.ordinal = ++ordinal_;
    item.raw.file = "<python>";
    item.raw.line = ordinal_;
    if (py::isinstance<py::str>(text) || py::isinstance<py::bytes>(text))
      item.raw.text = text.cast<std::string>();
    else
      throw py::type_error("record " + std::to_string(ordinal_) + " is a " +
                           std::string(py::str(py::type::of(text).attr("__name__"))) +
                           ", not a scene (a dict or its JSON text)");
    return true;
  }

  const std::vector<std::string>& paths() const { return paths_; }
  const std::string& format() const { return format_; }
  const std::string& categories() const { return categories_; }
  bool files() const { return stream_.has_value(); }
  const Limits& limits() const { return limits_; }

 private:
  Limits limits_;
  std::vector<std::string> paths_;
  std::string format_ = "native", categories_;
  std::optional<RecordStream> stream_;
  py::iterator texts_;
  std::size_t ordinal_ = 0;
};

// The band of a run: the caller's Bands, or a mode ("default", "auto") resolved as the command
// line does over files; over Python records, the first scene's dataset default.
struct BandChoice {
  std::optional<Bands> fixed;
  std::string mode;
};

BandChoice band_choice(const py::object& bands) {
  BandChoice choice;
  if (bands.is_none()) return choice;
  if (py::isinstance<py::str>(bands)) {
    choice.mode = bands.cast<std::string>();
    if (choice.mode != "auto" && choice.mode != "default")
      throw py::value_error("bands must be a geotruth.Bands, \"auto\", \"default\" or None");
    return choice;
  }
  choice.fixed = bands.cast<Bands>();
  return choice;
}

// Over Python records with no band given: the first scene's dataset default.
Bands first_scene_bands(const StreamItem& item, const Limits& limits) {
  const SceneOrError scene = scene_of(item, limits);
  const Scene* s = std::get_if<Scene>(&scene);
  return dataset_bands(s ? dataset_of(*s) : "");
}

// The band over files as the command line resolves it; over Python records, the caller's or none
// yet (the first scene's dataset default, once it is read).
std::optional<Bands> resolve_for_files(const BandChoice& choice, Source& source) {
  if (choice.fixed) return choice.fixed;
  if (!source.files()) {
    if (choice.mode == "auto")
      throw py::value_error("bands=\"auto\" reads the data twice: give a path, or geotruth.Bands.estimate(scenes)");
    return std::nullopt;
  }
  BandRequest request;
  request.mode = choice.mode;
  std::vector<std::string> inputs = source.paths();
  std::ostringstream log;  // the command's "bands: …" line; Python reads the band itself
  py::gil_scoped_release released;
  return resolve_bands(request, inputs, source.format(), source.limits(), log, source.categories()).bands;
}

// A fixed set of threads running jobs in the order given; joined (after the queued jobs) when
// destroyed.
class Workers {
 public:
  explicit Workers(unsigned count) {
    for (unsigned k = 0; k < count; ++k) threads_.emplace_back([this] { run(); });
  }
  ~Workers() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    ready_.notify_all();
    for (auto& t : threads_) t.join();
  }
  void submit(std::function<void()> job) {
    {
      std::lock_guard lock(mutex_);
      jobs_.push_back(std::move(job));
    }
    ready_.notify_one();
  }

 private:
  void run() {
    for (;;) {
      std::function<void()> job;
      {
        std::unique_lock lock(mutex_);
        ready_.wait(lock, [&] { return stop_ || !jobs_.empty(); });
        if (jobs_.empty()) return;
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      job();
    }
  }
  std::vector<std::thread> threads_;
  std::deque<std::function<void()>> jobs_;
  std::mutex mutex_;
  std::condition_variable ready_;
  bool stop_ = false;
};

unsigned thread_count(int threads) {
  return threads > 0 ? static_cast<unsigned>(threads) : std::max(1u, std::thread::hardware_concurrency());
}

// The verdicts of a stream of records, audited on `threads` threads while the caller consumes
// them: a window of records ahead of the caller is in flight, and results come back in input order.
class AuditIterator {
 public:
  AuditIterator(std::unique_ptr<Source> source, std::optional<Bands> bands, int threads, bool yield_errors, bool scenes)
      : source_(std::move(source)),
        bands_(std::move(bands)),
        window_(8 * thread_count(threads)),
        yield_errors_(yield_errors),
        scenes_(scenes),
        workers_(std::make_unique<Workers>(thread_count(threads))) {}

  ~AuditIterator() {
    py::gil_scoped_release released;
    workers_.reset();  // finishes the records in flight before their slots go
  }

  /// The band in force: None until the first record decides it (Python records, none given).
  const std::optional<Bands>& bands() const { return bands_; }

  py::object next() {
    while (ready_.empty()) {
      fill();
      if (slots_.empty()) throw py::stop_iteration();
      std::unique_ptr<Slot> head = std::move(slots_.front());
      slots_.pop_front();
      {
        py::gil_scoped_release released;
        std::unique_lock lock(mutex_);
        done_.wait(lock, [&] { return head->done; });
      }
      if (head->failure) std::rethrow_exception(head->failure);
      const AuditedRecord& r = head->result;
      if (r.error && !yield_errors_) {
        const auto& e = r.scene["error"];
        raise_error({e["pointer"], e["message"]}, r.scene.value("file", ""), r.scene.value("line", 0));
      }
      for (const auto& v : r.verdicts) ready_.push_back(to_python(v));
      if (scenes_ || r.error) ready_.push_back(to_python(r.scene));
    }
    py::object out = std::move(ready_.front());
    ready_.pop_front();
    return out;
  }

 private:
  struct Slot {
    StreamItem item;
    AuditedRecord result;
    std::exception_ptr failure;
    bool done = false;
  };

  // Tops the window up with records from the source and starts auditing them.
  void fill() {
    while (!exhausted_ && slots_.size() < window_) {
      auto slot = std::make_unique<Slot>();
      if (!source_->next(slot->item)) {
        exhausted_ = true;
        break;
      }
      if (!bands_) bands_ = first_scene_bands(slot->item, source_->limits());
      Slot* work = slot.get();
      slots_.push_back(std::move(slot));
      workers_->submit([this, work] {
        try {
          work->result = audit_record(work->item, *bands_, source_->limits());
        } catch (...) {
          work->failure = std::current_exception();
        }
        {
          std::lock_guard lock(mutex_);
          work->done = true;
        }
        done_.notify_all();
      });
    }
  }

  std::unique_ptr<Source> source_;
  std::optional<Bands> bands_;
  std::size_t window_;
  bool yield_errors_, scenes_, exhausted_ = false;
  std::deque<std::unique_ptr<Slot>> slots_;
  std::deque<py::object> ready_;
  std::mutex mutex_;
  std::condition_variable done_;
  std::unique_ptr<Workers> workers_;  // last: joined before the slots it works on are destroyed
};

// Native scenes from any source format, as `geotruth import` writes them.
class ImportIterator {
 public:
  ImportIterator(std::unique_ptr<Source> source, bool yield_errors)
      : source_(std::move(source)), yield_errors_(yield_errors) {}
  py::object next() {
    StreamItem item;
    if (!source_->next(item)) throw py::stop_iteration();
    ordered_json record;
    std::optional<InputError> error;
    {
      py::gil_scoped_release released;
      const SceneOrError scene = scene_of(item, source_->limits());
      if (const auto* e = std::get_if<InputError>(&scene))
        error = *e;
      else
        record = import_record(std::get<Scene>(scene), source_->format(), item.raw.notes);
    }
    if (error) {
      if (!yield_errors_) raise_error(*error, item.raw.file, item.raw.line);
      record = error_record(item.raw, *error);
    }
    return to_python(record);
  }

 private:
  std::unique_ptr<Source> source_;
  bool yield_errors_;
};

// Records from files (`paths`, through the importer of `format`) or from the Python iterable `texts`.
std::unique_ptr<Source> source_of(const std::vector<std::string>& paths, const py::object& texts,
                                  const std::string& format, const std::string& categories, const Limits& limits) {
  if (!paths.empty()) return std::make_unique<Source>(paths, format, categories, limits);
  return std::make_unique<Source>(py::iter(texts), limits);
}

vision::ImageFormat image_format(const std::string& name) {
  if (name == "png") return vision::ImageFormat::png;
  if (name == "jpeg" || name == "jpg") return vision::ImageFormat::jpeg;
  throw py::value_error("format must be \"png\", \"jpeg\" or \"array\"");
}

}  // namespace

PYBIND11_MODULE(_geotruth, m) {
  m.doc() = "geotruth's C++ core (use the geotruth package, not this module)";
  m.attr("__version__") = geotruth::version();
  m.attr("__commit__") = geotruth::build_commit();

  py::register_exception_translator([](std::exception_ptr failure) {
    try {
      if (failure) std::rethrow_exception(failure);
    } catch (const RecordError& e) {
      py::object error = error_class()(e.error.message, e.error.pointer, e.file, e.line);
      PyErr_SetObject(error_class().ptr(), error.ptr());
    } catch (const InputError& e) {
      py::object error = error_class()(e.message, e.pointer, "", 0);
      PyErr_SetObject(error_class().ptr(), error.ptr());
    } catch (const std::invalid_argument& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  m.def("_set_error_class", [](py::object cls) { error_class() = std::move(cls); });

  py::class_<Bands>(m, "Bands", R"doc(The decision band of a run (docs/design.md, "The band model").

A fact holds when its slack is at most eps_num_px pixels of the rendered image, is too close to
call below eps_vis_px, and clearly fails from eps_vis_px on. render_size_px is the rendered
image's longer side (0: the frame's units are pixels; frames under 64 units are drawn at 640).)doc")
      .def(py::init([](double eps_num_px, double eps_vis_px, double render_size_px) {
             if (eps_num_px < 0 || eps_vis_px < eps_num_px) throw py::value_error("need 0 <= eps_num_px <= eps_vis_px");
             Bands b;
             b.eps_num_px = eps_num_px, b.eps_vis_px = eps_vis_px, b.render_size_px = render_size_px;
             const bool chosen = eps_num_px != Bands{}.eps_num_px || eps_vis_px != Bands{}.eps_vis_px;
             if (chosen) b.source = "option", b.reason = "given by the caller";
             return b;
           }),
           py::arg("eps_num_px") = Bands{}.eps_num_px, py::arg("eps_vis_px") = Bands{}.eps_vis_px,
           py::arg("render_size_px") = 0.0)
      .def_readwrite("eps_num_px", &Bands::eps_num_px)
      .def_readwrite("eps_vis_px", &Bands::eps_vis_px)
      .def_readwrite("render_size_px", &Bands::render_size_px)
      .def_readonly("source", &Bands::source, "default, dataset:<name>, auto or option")
      .def_readonly("reason", &Bands::reason, "one sentence: why this band")
      .def_static("for_dataset", &dataset_bands, py::arg("dataset"),
                  "The documented default band of a dataset (geometry3k, pgdp, ai2d, gepbench, …; '' for the "
                  "global default).")
      .def_static(
          "_estimate",
          [](py::iterator texts, const std::string& dataset) {
            BandEstimator estimator(dataset_bands(dataset));
            for (const auto& text : texts) {
              const std::string t = text.cast<std::string>();
              py::gil_scoped_release released;
              estimator.add(read_one(t, Limits{}));
            }
            return estimator.estimate();
          },
          py::arg("texts"), py::arg("dataset"))
      .def("to_dict", [](const Bands& b) { return to_python(bands_json(b, true)); })
      .def("__repr__", [](const Bands& b) {
        std::ostringstream out;
        out << "Bands(eps_num_px=" << b.eps_num_px << ", eps_vis_px=" << b.eps_vis_px
            << ", render_size_px=" << b.render_size_px << ", source='" << b.source << "')";
        return out.str();
      });

  m.def(
      "analyze",
      [](const std::string& text, const std::string& mode, const std::optional<Bands>& bands, const py::dict& limits) {
        const auto incidence_mode = incidence_mode_named(mode);
        if (!incidence_mode) throw py::value_error("mode must be \"declared\", \"geometric\" or \"merged\"");
        return record_of(text, limits, [&](const Scene& scene) {
          return analyze_record(scene, bands_for(scene, bands), *incidence_mode);
        });
      },
      py::arg("text"), py::arg("mode"), py::arg("bands"), py::arg("limits"));

  m.def(
      "count",
      [](const std::string& text, const std::string& mode, bool any_vertex, bool quadrilaterals, bool list,
         const std::optional<Bands>& bands, const py::dict& limits) {
        const auto incidence_mode = incidence_mode_named(mode);
        if (!incidence_mode) throw py::value_error("mode must be \"declared\", \"geometric\" or \"merged\"");
        return record_of(text, limits, [&](const Scene& scene) {
          return count_record(scene, bands_for(scene, bands), *incidence_mode,
                              CountOptions{any_vertex, quadrilaterals, list});
        });
      },
      py::arg("text"), py::arg("mode"), py::arg("any_vertex"), py::arg("quadrilaterals"), py::arg("list"),
      py::arg("bands"), py::arg("limits"));

  py::class_<AuditIterator>(m, "_AuditIterator")
      .def("__iter__", [](AuditIterator& self) -> AuditIterator& { return self; })
      .def("__next__", &AuditIterator::next)
      .def_property_readonly("bands", &AuditIterator::bands, "the band in force (None before the first record)");
  m.def(
      "audit",
      [](const std::vector<std::string>& paths, const py::object& texts, const std::string& format,
         const std::string& categories, const py::object& bands, int threads, const std::string& errors, bool scenes,
         const py::dict& limit_options) {
        if (errors != "raise" && errors != "yield") throw py::value_error("errors must be \"raise\" or \"yield\"");
        auto source = source_of(paths, texts, format, categories, limits_from(limit_options));
        std::optional<Bands> run = resolve_for_files(band_choice(bands), *source);
        return std::make_unique<AuditIterator>(std::move(source), std::move(run), threads, errors == "yield", scenes);
      },
      py::arg("paths"), py::arg("texts"), py::arg("format"), py::arg("categories"), py::arg("bands"),
      py::arg("threads"), py::arg("errors"), py::arg("scenes"), py::arg("limits"));

  py::class_<ImportIterator>(m, "_ImportIterator")
      .def("__iter__", [](ImportIterator& self) -> ImportIterator& { return self; })
      .def("__next__", &ImportIterator::next);
  m.def(
      "import_records",
      [](const std::string& format, const std::vector<std::string>& paths, const std::string& categories,
         const std::string& errors, const py::dict& limit_options) {
        if (errors != "raise" && errors != "yield") throw py::value_error("errors must be \"raise\" or \"yield\"");
        return std::make_unique<ImportIterator>(
            std::make_unique<Source>(paths, format, categories, limits_from(limit_options)), errors == "yield");
      },
      py::arg("format"), py::arg("paths"), py::arg("categories"), py::arg("errors"), py::arg("limits"));

  m.def(
      "render",
      [](const std::string& text, const std::string& format, int size, double stroke_width,
         std::array<std::uint8_t, 3> color, const std::string& style, double gaussian, double salt_pepper, int disturb,
         double perlin, std::uint64_t seed, bool labels, int quality, double render_size) -> py::object {
        if (style != "clean" && style != "sketch") throw py::value_error("style must be \"clean\" or \"sketch\"");
        vision::RenderOptions o;
        o.size = size, o.stroke_width = stroke_width, o.color = color;
        o.style = style == "sketch" ? vision::Style::sketch : vision::Style::clean;
        o.noise = {gaussian, salt_pepper, disturb, perlin};
        o.seed = seed, o.draw_labels = labels, o.bands.render_size_px = render_size;
        const bool array = format == "array";
        const vision::ImageFormat encoding = array ? vision::ImageFormat::png : image_format(format);
        vision::Image image;
        std::vector<std::uint8_t> bytes;
        {
          py::gil_scoped_release released;
          const Scene scene = read_one(text, Limits{});
          try {
            image = vision::render(scene, o);
          } catch (const std::invalid_argument& e) {
            raise_error({"/frame", e.what()});
          }
          if (!array) bytes = vision::encode(image, encoding, quality);
        }
        if (!array) return py::bytes(reinterpret_cast<const char*>(bytes.data()), bytes.size());
        py::array_t<std::uint8_t> pixels(std::vector<py::ssize_t>{image.height, image.width, 3});
        std::copy(image.rgb.begin(), image.rgb.end(), pixels.mutable_data());
        return pixels;
      },
      py::arg("text"), py::arg("format"), py::arg("size"), py::arg("stroke_width"), py::arg("color"), py::arg("style"),
      py::arg("gaussian"), py::arg("salt_pepper"), py::arg("disturb"), py::arg("perlin"), py::arg("seed"),
      py::arg("labels"), py::arg("quality"), py::arg("render_size"));

  m.def(
      "score",
      [](const std::vector<std::string>& paths, const py::object& texts, const std::string& format,
         const std::string& categories, const py::object& bands,
         const std::vector<std::pair<std::string, py::object>>& responses, const py::dict& limit_options) {
        const Limits limits = limits_from(limit_options);
        std::vector<score::Model> models;
        for (const auto& [name, given] : responses) {
          if (py::isinstance<py::str>(given)) {  // a file or directory
            const std::string path = given.cast<std::string>();
            {
              py::gil_scoped_release released;
              models.push_back(score::read_model(path, limits));
            }
            if (!name.empty()) models.back().name = name;
            continue;
          }
          score::Model model;  // rows, each as its JSON text
          model.name = name;
          model.file = "<python>";
          std::size_t line = 0;
          for (const auto& row : given) model.rows.push_back(score::parse_row(row.cast<std::string>(), ++line));
          models.push_back(std::move(model));
        }
        auto source = source_of(paths, texts, format, categories, limits);
        const std::optional<Bands> run = resolve_for_files(band_choice(bands), *source);
        Bands used = run.value_or(Bands{});
        bool decided = run.has_value();
        score::Scorer scorer;
        ordered_json scores;
        {
          py::gil_scoped_release released;
          const ordered_json read = score::add_records(
              scorer,
              [&](StreamItem& item) {
                {
                  py::gil_scoped_acquire acquired;
                  if (!source->next(item)) return false;
                }
                if (!decided) {  // Python records: the first scene's dataset default
                  used = first_scene_bands(item, limits);
                  decided = true;
                }
                return true;
              },
              used, limits);
          scores = scorer.score(models);
          scores["bands"] = bands_json(used);
          scores.update(read);
        }
        return to_python(scores);
      },
      py::arg("paths"), py::arg("texts"), py::arg("format"), py::arg("categories"), py::arg("bands"),
      py::arg("responses"), py::arg("limits"));

  m.def(
      "generate",
      [](const std::string& family, const std::string& level, std::uint64_t n, std::uint64_t seed, std::uint64_t start,
         bool grid, const std::optional<Bands>& bands, std::size_t max_attempts,
         const py::object& picture) -> py::list {
        if (family != "diagram" && family != "tangram" && family != "gepbench")
          throw py::value_error("family must be \"diagram\", \"tangram\" or \"gepbench\"");
        if (!known_level(family, level))
          throw py::value_error("level \"" + level + "\" does not apply to family \"" + family +
                                "\" (gepbench: easy, hard; tangram: easy, medium, hard; diagram: none)");
        if (start < 1) throw py::value_error("start is the first item's ordinal: 1 or more");
        GenerateOptions options;
        options.family = family, options.level = level, options.grid = grid, options.max_attempts = max_attempts;
        options.bands = bands ? *bands : family == "gepbench" ? dataset_bands("gepbench") : Bands{};
        // Pictures: drawn, encoded and cross-checked as generate --render does; a candidate whose
        // picture disagrees is rejected.
        std::optional<vision::RenderOptions> render;
        vision::ImageFormat format = vision::ImageFormat::png;
        int quality = 90;
        if (!picture.is_none()) {
          const py::dict o = picture.cast<py::dict>();
          vision::RenderOptions r;
          auto get = [&](const char* key, auto fallback) {
            return o.contains(key) ? o[key].cast<decltype(fallback)>() : fallback;
          };
          r.size = get("size", 0), r.stroke_width = get("stroke_width", 2.0);
          const std::string style = get("style", std::string("clean"));
          if (style != "clean" && style != "sketch") throw py::value_error("style must be \"clean\" or \"sketch\"");
          r.style = style == "sketch" ? vision::Style::sketch : vision::Style::clean;
          r.noise = {get("gaussian", 0.0), get("salt_pepper", 0.0), get("disturb", 0), get("perlin", 0.0)};
          const int gray = get("color", 0);
          r.color = {static_cast<std::uint8_t>(gray), static_cast<std::uint8_t>(gray), static_cast<std::uint8_t>(gray)};
          r.seed = seed, r.draw_labels = get("labels", true);
          format = image_format(get("format", std::string("png")));
          quality = get("quality", 90);
          for (const auto& [key, _] : o)
            if (!std::set<std::string>{"size", "stroke_width", "style", "gaussian", "salt_pepper", "disturb", "perlin",
                                       "color", "labels", "format", "quality"}
                     .count(key.cast<std::string>()))
              throw py::type_error("unknown picture option \"" + key.cast<std::string>() +
                                   "\" (size, stroke_width, style, gaussian, salt_pepper, disturb, perlin, color, "
                                   "labels, format, quality)");
          if (r.size > 0) options.bands.render_size_px = r.size;
          r.bands = options.bands;
          render = r;
        }
        std::vector<GeneratedItem> items;
        std::vector<std::vector<std::uint8_t>> images;
        {
          py::gil_scoped_release released;
          for (std::uint64_t i = start; i < start + n; ++i) {
            std::vector<std::uint8_t> bytes;
            CandidateCheck check;
            if (render)
              check = [&](const Scene& scene) -> std::string {
                vision::Image image = vision::render(scene, *render);
                bytes = vision::encode(image, format, quality);
                if (format == vision::ImageFormat::jpeg) {
                  std::string error;
                  image = vision::decode(bytes, error);
                }
                vision::CrossCheckOptions check_options;
                check_options.bands = options.bands;
                const vision::CrossCheck result = vision::crosscheck(scene, image, check_options);
                return result.agree ? "" : "picture: " + std::string(finding_kind_name(result.reasons.front().kind));
              };
            items.push_back(generate_item(options, seed, i, check));
            if (render && !items.back().error && bytes.empty()) {  // diagrams: drawn, not certified
              vision::Image image = vision::render(items.back().scene, *render);
              bytes = vision::encode(image, format, quality);
            }
            images.push_back(std::move(bytes));
          }
        }
        py::list out;
        for (std::size_t k = 0; k < items.size(); ++k) {
          const GeneratedItem& item = items[k];
          py::dict d;
          d["item"] = start + k;
          if (item.error) {
            d["error"] = *item.error;
          } else {
            d["scene"] = to_python(ordered_json::parse(write_scene(item.scene)));
            if (family == "gepbench") {
              d["rules"] = to_python(ordered_json::parse(item.engine_rules));
              py::list vqa;
              for (const auto& q : item.engine_questions) {
                vqa.append(to_python(
                    ordered_json::parse("{" + engine_row_members(q) + ", \"aspect\": \"" + q.aspect + "\"}")));
              }
              d["vqa"] = vqa;
            }
            if (render) d["image"] = py::bytes(reinterpret_cast<const char*>(images[k].data()), images[k].size());
          }
          d["attempts"] = item.attempts;
          d["rejected"] = item.rejected;
          d["dropped"] = item.dropped;
          out.append(d);
        }
        return out;
      },
      py::arg("family"), py::arg("level"), py::arg("n"), py::arg("seed"), py::arg("start"), py::arg("grid"),
      py::arg("bands"), py::arg("max_attempts"), py::arg("picture"));

  m.def(
      "score_table", [](const std::string& scores) { return score::table(ordered_json::parse(scores)); },
      py::arg("scores"));
  m.def(
      "score_page", [](const std::string& scores) { return score::page(ordered_json::parse(scores)); },
      py::arg("scores"));
  m.def(
      "extract_answer",
      [](const std::string& response, const std::vector<std::string>& options, const std::string& ask,
         const std::string& answer, const std::string& point_letters) {
        Question q;
        q.options = options, q.ask = ask, q.answer = answer;
        const score::Extracted e =
            score::extract_answer(response, q, std::set<char>(point_letters.begin(), point_letters.end()));
        py::dict out;
        out["method"] = score::method_name(e.method);
        out["option"] = e.option ? py::object(py::str(option_letter(*e.option))) : py::object(py::none());
        out["value"] = e.value;
        return out;
      },
      py::arg("response"), py::arg("options"), py::arg("ask"), py::arg("answer"), py::arg("point_letters"));
}
