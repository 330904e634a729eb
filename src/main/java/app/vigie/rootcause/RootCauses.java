package app.vigie.rootcause;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.quarkus.runtime.Startup;

import app.vigie.compliance.rules.InvalidRules;
import app.vigie.incident.IncidentQueries;
import app.vigie.rootcause.core.HintCatalogue;
import app.vigie.rootcause.core.HintLoader;
import app.vigie.rootcause.core.HintMatcher;

/**
 * The root-cause hints, read and checked at start ({@code vigie.root-causes.file}; unset, ./root-causes/root-causes.yaml
 * where it exists, else the copy the application carries): a broken file stops start-up, naming its line. Matches an
 * incident's findings against them.
 */
@Startup
@Singleton
public class RootCauses {
    private static final Logger LOG = Logger.getLogger(RootCauses.class);

    private final HintCatalogue catalogue;
    private final HintMatcher matcher;

    @Inject
    public RootCauses(@ConfigProperty(name = "vigie.root-causes.file") Optional<String> file) {
        HintLoader.Loaded loaded;
        try {
            loaded = HintLoader.resolve(file);
        } catch (InvalidRules e) {
            LOG.errorf("Root-cause hints refused, the service does not start: %s", e.getMessage());
            throw e;
        }
        catalogue = loaded.catalogue();
        matcher = new HintMatcher(catalogue);
        LOG.infof("Root-cause hints: %d from %s (version %s)", catalogue.hints().size(), loaded.origin(),
                catalogue.version());
    }

    public HintCatalogue catalogue() {
        return catalogue;
    }

    /** The hints an incident's findings match, and the findings no hint accounts for. */
    public HintMatcher.Result of(Connection c, UUID incident) throws SQLException {
        // read once, matched twice: both passes see the same findings, whatever is recorded meanwhile
        List<Map.Entry<String, Map<String, Instant>>> subjects = new ArrayList<>();
        IncidentQueries.findingsBySubject(c, incident, (subject, rules) -> subjects.add(Map.entry(subject, rules)));
        return matcher.result(tally -> subjects.forEach(e -> tally.subject(e.getKey(), e.getValue())));
    }
}
