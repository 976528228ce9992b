package ad4j.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class OverridesTest {
  static class Base {
    double f(double a) {
      return a;
    }

    public double g(double a, double[] b) {
      return a + b[0];
    }
  }

  static class Overriding extends Base {
    @Override
    public double g(double a, double[] b) {
      return 0;
    }
  }

  static class Below extends Overriding {}

  static class Overloading extends Base {
    public double g(double a) {
      return a;
    }

    static double f(int a) {
      return a;
    }
  }

  @Test
  void aClassOverridesWhenItOrAClassAboveItDeclaresTheMethodAgain() {
    ClassValue<Boolean> g = Overrides.of(Base.class, "g", double.class, double[].class);
    assertFalse(g.get(Base.class));
    assertTrue(g.get(Overriding.class));
    assertTrue(g.get(Below.class));
    assertFalse(g.get(Overloading.class)); // another parameter list is an overload
  }

  @Test
  void aPackagePrivateMethodIsOverriddenFromItsPackage() {
    ClassValue<Boolean> f = Overrides.of(Base.class, "f", double.class);
    assertFalse(f.get(Overloading.class));
    assertFalse(f.get(Overriding.class));
  }

  @Test
  void checkThrowsForAnOverridingReceiverOnly() {
    ClassValue<Boolean> g = Overrides.of(Base.class, "g", double.class, double[].class);
    Overrides.check(g, new Overloading(), "Base.g", "BaseGrad.gGradient");
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> Overrides.check(g, new Below(), "Base.g", "BaseGrad.gGradient"));
    assertEquals("BaseGrad.gGradient: the receiver is a " + Below.class.getName() + ", which"
        + " overrides Base.g; ad4j differentiated the body of Base.g, which a call on this"
        + " receiver does not run, and generated members do not dispatch on the receiver's"
        + " class: call the members generated for the overriding method (@Differentiable on it)"
        + " on a receiver declared of its class, or make Base.g final", refused.getMessage());
  }

  @Test
  void aMethodTheClassDoesNotDeclareIsAnError() {
    assertThrows(IllegalArgumentException.class, () -> Overrides.of(Base.class, "h"));
  }
}
