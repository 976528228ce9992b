package ad4j.processor.testing;

import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Which seed the random property tests start from.
 *
 * <ul>
 *   <li>{@code -Dad4j.seed=...} replays that seed (jqwik prints the seed of every failure);
 *   <li>on CI (the environment variable {@code CI} is {@code true}) the seed is {@link #CI_SEED},
 *       so that whether a commit lands depends on the commit, not on the programs a run happened
 *       to draw;
 *   <li>anywhere else jqwik draws a fresh seed, so every developer build explores new programs;
 *       the long runs that each test's javadoc describes explore many more.
 * </ul>
 *
 * <p>Use {@link #apply} from a hook that already wraps the property, or add {@link Hook} with
 * {@code @AddLifecycleHook(PropertySeeds.Hook.class)}.
 */
public final class PropertySeeds {
  /** The seed of CI runs. Any seed will do; this one passed every property when it was set. */
  public static final String CI_SEED = "20261127";

  private PropertySeeds() {}

  /**
   * The seed of a test that draws its own fixed set of programs (a parameterized test, not a
   * jqwik property): {@code -Dad4j.seed=...} when given, else {@code own}, on CI as anywhere.
   */
  public static long programsSeed(long own) {
    String requested = System.getProperty("ad4j.seed");
    return requested != null && !requested.isBlank() ? Long.parseLong(requested.trim()) : own;
  }

  /** Sets the property's seed as described above; leaves jqwik's fresh seed otherwise. */
  public static void apply(PropertyLifecycleContext context) {
    String requested = System.getProperty("ad4j.seed");
    if (requested != null && !requested.isBlank()) {
      context.attributes().setSeed(requested.trim());
    } else if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      context.attributes().setSeed(CI_SEED);
    }
  }

  /** {@link #apply} as a hook of its own, for properties that have no other hook. */
  public static final class Hook implements AroundPropertyHook {
    @Override
    public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context,
        PropertyExecutor property) {
      apply(context);
      return property.execute();
    }
  }
}
