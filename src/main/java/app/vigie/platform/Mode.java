package app.vigie.platform;

import java.nio.file.Path;
import java.util.Locale;

import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;

/** The two ways to run the one artifact: embedded (no external service) and production. */
public enum Mode {
    EMBEDDED, PRODUCTION;

    /**
     * The mode, read one way everywhere: in the running service from its configuration ({@code vigie.mode}, which
     * application.properties takes from {@code VIGIE_MODE}, and which a test profile may set); before the service
     * starts (the command line) from {@code -Dvigie.mode} or {@code VIGIE_MODE}. Embedded when unset.
     */
    public static Mode current() {
        String v = null;
        ArcContainer arc = Arc.container();
        if (arc != null && arc.isRunning()) {
            v = ConfigProvider.getConfig().getOptionalValue("vigie.mode", String.class).orElse(null);
        }
        return of(v != null ? v : System.getProperty("vigie.mode", System.getenv("VIGIE_MODE")));
    }

    /** {@code embedded} or {@code production}, in any case; embedded when blank. */
    public static Mode of(String v) {
        if (v == null || v.isBlank()) {
            return EMBEDDED;
        }
        try {
            return valueOf(v.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("VIGIE_MODE must be 'embedded' or 'production', got '" + v + "'");
        }
    }

    /** {@code VIGIE_DATA_DIR}, default {@code ./data}. */
    public static Path dataDir() {
        String v = System.getProperty("vigie.data-dir", System.getenv("VIGIE_DATA_DIR"));
        return Path.of(v == null || v.isBlank() ? "data" : v).toAbsolutePath();
    }
}
