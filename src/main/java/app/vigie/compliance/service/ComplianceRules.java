package app.vigie.compliance.service;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkus.runtime.Startup;

import app.vigie.compliance.plan.Escalations;
import app.vigie.compliance.plan.ObligationPlanner;
import app.vigie.compliance.plan.ProviderProfile;
import app.vigie.compliance.rules.InvalidRules;
import app.vigie.compliance.rules.RuleLoader;
import app.vigie.compliance.rules.RuleSet;
import app.vigie.compliance.severity.EnisaSeverity;
import app.vigie.settings.ProviderConfig;

/**
 * compliance-rules/ read and checked at start (a broken file stops start-up, naming its file and line), with the
 * provider's profile and the escalation steps of the configuration. The directory is
 * {@code vigie.compliance.rules-dir}; unset, ./compliance-rules where it exists, else the copy the application
 * carries.
 */
@Startup
@Singleton
public class ComplianceRules {
    private static final Logger LOG = Logger.getLogger(ComplianceRules.class);
    private static final String BUNDLED = "compliance-rules";

    private final RuleSet rules;
    private final String version;
    private final String origin;
    private final ObligationPlanner planner;
    private final EnisaSeverity severity;
    private final ProviderProfile provider;
    private final Escalations escalations;

    @Inject
    public ComplianceRules(ComplianceConfig config, ProviderConfig provider) {
        this(config.rulesDir(), provider.country(), provider.regimes(), config.escalations(), true);
    }

    /** The rules of {@code dir} (the bundled ones when empty), for a provider of {@code country}. */
    public ComplianceRules(Optional<String> dir, String country, Optional<List<String>> regimes, List<Duration> steps) {
        this(dir, country, regimes, steps, true);
    }

    /** {@code log}: false for a command whose standard output is its answer. */
    public ComplianceRules(Optional<String> dir, String country, Optional<List<String>> regimes, List<Duration> steps,
            boolean log) {
        Map<String, String> files;
        if (dir.isPresent()) {
            origin = dir.get();
            files = RuleLoader.read(Path.of(dir.get()));
        } else if (Files.isDirectory(Path.of(BUNDLED))) {
            origin = Path.of(BUNDLED).toAbsolutePath().toString();
            files = RuleLoader.read(Path.of(BUNDLED));
        } else {
            origin = "the copy inside the application";
            files = bundled();
        }
        String prefix = origin.startsWith("the copy") ? BUNDLED + "/ (inside the application) " : origin + "/";
        try {
            rules = RuleLoader.load(files, prefix);
        } catch (InvalidRules e) {
            if (log) {
                LOG.errorf("Compliance rules refused, the service does not start: %s", e.getMessage());
            }
            throw e;
        }
        version = version(files);
        if (!country.matches("[A-Z]{2}")) {
            throw new IllegalStateException("vigie.provider.country must be an ISO 3166-1 alpha-2 code such as FR, "
                    + "got '" + country + "'");
        }
        Set<String> own = Set.copyOf(regimes.orElse(List.of()));
        for (String r : own) {
            if (rules.regime(r).isEmpty()) {
                throw new IllegalStateException("vigie.provider.regimes names '" + r + "', which is not a regime of "
                        + origin + " (" + String.join(", ", rules.regimes().stream().map(g -> g.id()).toList())
                        + ")");
            }
        }
        provider = new ProviderProfile(country, own);
        planner = new ObligationPlanner(rules);
        severity = new EnisaSeverity(rules.severity());
        escalations = new Escalations(steps);
        if (log) {
            LOG.infof("Compliance rules: %d regimes from %s (version %s); provider in %s, subject to %s",
                rules.regimes().size(), origin, version, country, own.isEmpty() ? "no regime of its own" : own);
        }
    }

    public RuleSet rules() {
        return rules;
    }

    /** The first 12 hex digits of a SHA-256 over the files' names and contents: which rules an answer used. */
    public String version() {
        return version;
    }

    /**
     * What a plan depends on besides an incident's facts and the code: the rules' {@link #version}, the provider's
     * profile and the escalation steps. A deadline saved under another one is planned again
     * ({@code incident_deadline.planned_with}).
     */
    public String plannedWith() {
        return version + " " + provider.country() + " " + provider.regimes().stream().sorted().toList() + " "
                + escalations;
    }

    public ObligationPlanner planner() {
        return planner;
    }

    public EnisaSeverity severity() {
        return severity;
    }

    public ProviderProfile provider() {
        return provider;
    }

    public Escalations escalations() {
        return escalations;
    }

    /** The copy of compliance-rules/ on the class path, in a jar or a directory. */
    private static Map<String, String> bundled() {
        URL url = ComplianceRules.class.getClassLoader().getResource(BUNDLED + "/" + RuleLoader.AUTHORITIES);
        if (url == null) {
            throw new InvalidRules(BUNDLED, 0, "no rules directory here and no copy inside the application");
        }
        try {
            URI uri = url.toURI();
            if (!"jar".equals(uri.getScheme())) {
                return RuleLoader.read(Path.of(uri).getParent());
            }
            try (FileSystem fs = FileSystems.newFileSystem(uri, Map.of())) {
                return RuleLoader.read(fs.getPath(BUNDLED));
            }
        } catch (URISyntaxException | IOException e) {
            throw new IllegalStateException("cannot read the rules inside the application at " + url, e);
        }
    }

    private static String version(Map<String, String> files) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            files.forEach((name, text) -> {
                d.update(name.getBytes(StandardCharsets.UTF_8));
                d.update((byte) 0);
                d.update(text.getBytes(StandardCharsets.UTF_8));
                d.update((byte) 0);
            });
            return HexFormat.of().formatHex(d.digest()).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
