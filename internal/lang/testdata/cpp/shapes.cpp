#include <vector>
#include <string>
#include "shape.hpp"

namespace geo {

/// Base shape.
class Shape {
public:
    virtual ~Shape() = default;
    virtual double area() const = 0;
};

// A circle.
class Circle : public Shape, private Named {
public:
    explicit Circle(double r) : r_(r) {}
    double area() const override {
        return compute(r_) * std::acos(-1.0);
    }

    struct Cache {
        void clear() { items.clear(); }
        std::vector<int> items;
    };

private:
    double r_;
};

template <typename T>
class Box : public Container<T> {
public:
    T get() const { return value; }
    T value;
};

double Circle::compute(double r) const {
    return helper::square(r);
}

int main(int argc, char **argv) {
    Circle c(2.0);
    auto *p = new Circle(1.0);
    p->area();
    return 0;
}

}  // namespace geo

static const int kLimit = 4;
