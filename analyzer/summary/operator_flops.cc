#include "analyzer/summary/operator_flops.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace prof::analyzer {
namespace {

using Shapes = std::vector<std::vector<int64_t>>;

// A cursor over the shapes text; every Parse* returns false on malformed input.
struct Reader {
  absl::string_view text;
  size_t at = 0;

  void SkipSpaces() {
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
  }
  bool Take(char c) {
    SkipSpaces();
    if (at < text.size() && text[at] == c) {
      ++at;
      return true;
    }
    return false;
  }
  bool ParseInt(int64_t* value) {
    SkipSpaces();
    const bool negative = at < text.size() && text[at] == '-';
    if (negative) ++at;
    const size_t first = at;
    int64_t result = 0;
    while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) {
      if (result < (INT64_MAX - 9) / 10) result = result * 10 + (text[at] - '0');
      ++at;
    }
    *value = negative ? -result : result;
    return at > first;
  }
  // Skips a list nested deeper than a shape (a tensor list's shapes): kept as unknown.
  bool SkipList() {
    int depth = 0;
    for (; at < text.size(); ++at) {
      if (text[at] == '[') ++depth;
      if (text[at] == ']' && --depth == 0) {
        ++at;
        return true;
      }
    }
    return false;
  }
  // One entry: "[d0, d1, ...]" (a shape or an int list's values), a nested list
  // (unknown: empty) or a bare number (a scalar's value: empty).
  bool ParseEntry(std::vector<int64_t>* shape) {
    SkipSpaces();
    if (at < text.size() && text[at] != '[') {
      int64_t ignored;
      return ParseInt(&ignored);
    }
    const size_t start = at;
    if (!Take('[')) return false;
    if (Take(']')) return true;
    SkipSpaces();
    if (at < text.size() && text[at] == '[') {
      at = start;
      return SkipList();
    }
    do {
      int64_t dimension;
      if (!ParseInt(&dimension)) return false;
      shape->push_back(dimension);
    } while (Take(','));
    return Take(']');
  }
};

double Product(const std::vector<int64_t>& values, size_t from = 0, size_t to = SIZE_MAX) {
  double product = 1;
  for (size_t i = from; i < values.size() && i < to; ++i) product *= static_cast<double>(values[i]);
  return product;
}

// "aten::addmm_" -> "addmm"; "torch.nn.functional.linear" -> "linear".
std::string BaseName(absl::string_view name) {
  const size_t scope = name.rfind("::");
  if (scope != absl::string_view::npos) name.remove_prefix(scope + 2);
  const size_t dot = name.rfind('.');
  if (dot != absl::string_view::npos) name.remove_prefix(dot + 1);
  if (name.size() > 1 && name.back() == '_') name.remove_suffix(1);
  return std::string(name);
}

// 2*B*M*N*K for a [.., M, K] x [.., K, N] product, batch dims broadcast; 1-D as row/column.
double MatmulFlops(std::vector<int64_t> a, std::vector<int64_t> b) {
  if (a.empty() || b.empty()) return 0;
  if (a.size() == 1) a.insert(a.begin(), 1);
  if (b.size() == 1) b.push_back(1);
  const int64_t m = a[a.size() - 2], k = a.back(), n = b.back();
  if (b[b.size() - 2] != k) return 0;
  const size_t a_batch = a.size() - 2, b_batch = b.size() - 2;
  double batch = 1;
  for (size_t i = 0; i < std::max(a_batch, b_batch); ++i) {
    const int64_t x = i < a_batch ? a[a_batch - 1 - i] : 1;
    const int64_t y = i < b_batch ? b[b_batch - 1 - i] : 1;
    batch *= static_cast<double>(std::max(x, y));
  }
  return 2 * batch * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
}

// The int list at `index` of the shapes text broadcast to `dims` entries, or `fallback`.
int64_t ListValue(const Shapes& shapes, size_t index, size_t dim, int64_t fallback) {
  if (index >= shapes.size() || shapes[index].empty()) return fallback;
  const std::vector<int64_t>& list = shapes[index];
  return list.size() == 1 ? list[0] : (dim < list.size() ? list[dim] : fallback);
}

// Forward convolution: x [N, C, *S], w [CO, C/groups, *K].
double ConvolutionFlops(const Shapes& shapes) {
  if (shapes.size() < 2) return 0;
  const std::vector<int64_t>& x = shapes[0];
  const std::vector<int64_t>& w = shapes[1];
  if (x.size() < 3 || w.size() != x.size()) return 0;
  double output_points = 1;
  for (size_t d = 0; d + 2 < x.size(); ++d) {
    const int64_t stride = ListValue(shapes, 3, d, 1);
    const int64_t padding = ListValue(shapes, 4, d, 0);
    const int64_t dilation = ListValue(shapes, 5, d, 1);
    if (stride <= 0) return 0;
    const int64_t out = (x[d + 2] + 2 * padding - dilation * (w[d + 2] - 1) - 1) / stride + 1;
    if (out <= 0) return 0;
    output_points *= static_cast<double>(out);
  }
  return 2 * static_cast<double>(x[0]) * Product(w) * output_points;
}

// convolution_backward (grad_out [N, CO, *S'], x, w [CO, C/groups, *K]): grad input and
// grad weight, each the forward count.
double ConvolutionBackwardFlops(const Shapes& shapes) {
  if (shapes.size() < 3) return 0;
  const std::vector<int64_t>& grad = shapes[0];
  const std::vector<int64_t>& w = shapes[2];
  if (grad.size() < 3 || w.size() != grad.size()) return 0;
  return 2 * 2 * static_cast<double>(grad[0]) * Product(w) * Product(grad, 2);
}

// q [B, H, L, E], k [B, H, S, E], v [B, H, S, Ev] at `first`, first + 1, first + 2.
double AttentionFlops(const Shapes& shapes, size_t first) {
  if (shapes.size() < first + 3) return 0;
  const std::vector<int64_t>& q = shapes[first];
  const std::vector<int64_t>& k = shapes[first + 1];
  const std::vector<int64_t>& v = shapes[first + 2];
  if (q.size() < 2 || k.size() != q.size() || v.size() != q.size()) return 0;
  const double batch_heads = Product(q, 0, q.size() - 2);
  const double l = static_cast<double>(q[q.size() - 2]);
  const double s = static_cast<double>(k[k.size() - 2]);
  return 2 * batch_heads * l * s * static_cast<double>(q.back() + v.back());
}

bool IsAttention(const std::string& base) {
  return base == "scaled_dot_product_attention" || base == "_scaled_dot_product_flash_attention" ||
         base == "_scaled_dot_product_efficient_attention" ||
         base == "_scaled_dot_product_cudnn_attention" ||
         base == "_scaled_dot_product_flash_attention_for_cpu";
}

}  // namespace

std::optional<Shapes> ParseShapes(absl::string_view text) {
  Reader reader{text};
  Shapes shapes;
  if (!reader.Take('[')) return std::nullopt;
  if (!reader.Take(']')) {
    do {
      shapes.emplace_back();
      if (!reader.ParseEntry(&shapes.back())) return std::nullopt;
    } while (reader.Take(','));
    if (!reader.Take(']')) return std::nullopt;
  }
  reader.SkipSpaces();
  if (reader.at != text.size()) return std::nullopt;
  return shapes;
}

double OperatorFlops(absl::string_view name, absl::string_view shapes_text) {
  if (shapes_text.empty()) return 0;
  const std::optional<Shapes> parsed = ParseShapes(shapes_text);
  if (!parsed) return 0;
  const Shapes& shapes = *parsed;
  const std::string base = BaseName(name);
  auto at = [&](size_t i) { return i < shapes.size() ? shapes[i] : std::vector<int64_t>(); };
  if (base == "mm" || base == "matmul" || base == "bmm") return MatmulFlops(at(0), at(1));
  if (base == "addmm" || base == "baddbmm") return MatmulFlops(at(1), at(2));
  if (base == "linear") {
    const std::vector<int64_t> x = at(0), w = at(1);
    if (x.empty() || w.size() != 2 || w[1] != x.back()) return 0;
    return 2 * Product(x, 0, x.size() - 1) * static_cast<double>(w[0]) * static_cast<double>(w[1]);
  }
  if (base == "convolution" || base == "_convolution" || base == "conv1d" || base == "conv2d" ||
      base == "conv3d") {
    return ConvolutionFlops(shapes);
  }
  if (base == "convolution_backward") return ConvolutionBackwardFlops(shapes);
  if (IsAttention(base)) return AttentionFlops(shapes, 0);
  if (base.size() > 9 && base.compare(base.size() - 9, 9, "_backward") == 0 &&
      IsAttention(base.substr(0, base.size() - 9))) {
    return 2 * AttentionFlops(shapes, 1);
  }
  return 0;
}

}  // namespace prof::analyzer
