package app.vigie.settings;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;


import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import app.vigie.audit.AuditTrail;
import app.vigie.db.UnitOfWork;
import app.vigie.problem.ProblemException;

/**
 * The operator's settings: the provider's identity, saved by an administrator on the settings page or through
 * {@code PUT /api/settings/provider} (audited, {@code settings.provider}); until the first save, the environment's
 * values ({@code vigie.provider.*}) stand as its default. Documents read it at each issue, so a change needs no
 * restart.
 */
@ApplicationScoped
public class SettingsService {

    @Inject
    Clock clock;

    @Inject
    ObjectMapper json;

    @Inject
    ProviderConfig environment;

    /** The identity and where it comes from: saved (by whom, when) or the environment's default. */
    public record View(ProviderIdentity identity, boolean saved, String updatedBy, Instant updatedAt,
            boolean identified) {
    }

    /** An identity refused: 400, each problem in English for the API; a page says them in its own words. */
    public static final class Invalid extends ProblemException {
        private final transient List<ProviderIdentity.Problem> problems;

        Invalid(List<ProviderIdentity.Problem> problems) {
            super(400, String.join("; ", problems.stream().map(ProviderIdentity.Problem::english).toList()));
            this.problems = List.copyOf(problems);
        }

        public List<ProviderIdentity.Problem> problems() {
            return problems;
        }
    }

    /** The environment's values, the default until an identity is saved. */
    ProviderIdentity fromEnvironment() {
        return new ProviderIdentity(environment.legalName().orElse(null), environment.address().orElse(null),
                environment.dpoName().orElse(null), environment.dpoEmail().orElse(null),
                environment.contact().orElse(null), environment.registration().orElse(null)).normalized();
    }

    /** The provider's identity as documents state it now (joins the transaction at hand, if any). */
    @UnitOfWork
    public ProviderIdentity identity() {
        return ProviderSettings.saved().map(ProviderSettings::identity).orElseGet(this::fromEnvironment);
    }

    @UnitOfWork
    public View view() {
        return ProviderSettings.saved().map(s -> new View(s.identity(), true, s.updatedBy, s.updatedAt,
                s.identity().identified())).orElseGet(() -> {
                    ProviderIdentity env = fromEnvironment();
                    return new View(env, false, null, null, env.identified());
                });
    }

    /** Saves {@code body} as the provider's identity, audited with its value before; 400 naming each problem. */
    @UnitOfWork
    public View save(String actor, ProviderIdentity body) {
        if (body == null) {
            throw new ProblemException(400, "the provider's identity is required");
        }
        ProviderIdentity next = body.normalized();
        List<ProviderIdentity.Problem> problems = next.problems();
        if (!problems.isEmpty()) {
            throw new Invalid(problems);
        }
        ProviderSettings.lockForSave();
        Optional<ProviderSettings> saved = ProviderSettings.saved();
        ProviderIdentity before = saved.map(ProviderSettings::identity).orElseGet(this::fromEnvironment);
        ProviderSettings s = saved.orElseGet(() -> {
            ProviderSettings created = new ProviderSettings();
            created.id = ProviderSettings.ONLY;
            return created;
        });
        if (saved.isPresent() && before.equals(next)) {
            return view();  // nothing changed: nothing to audit
        }
        s.legalName = next.legalName();
        s.address = next.address();
        s.dpoName = next.dpoName();
        s.dpoEmail = next.dpoEmail();
        s.contact = next.contact();
        s.registration = next.registration();
        s.updatedBy = actor;
        s.updatedAt = clock.instant();
        s.persist();
        AuditTrail.record(actor, "settings.provider", "settings:provider",
                saved.isPresent() ? write(before) : "{\"from\":\"environment\",\"identity\":" + write(before) + "}",
                write(next));
        return new View(next, true, actor, s.updatedAt, next.identified());
    }

    private String write(ProviderIdentity identity) {
        try {
            return json.writeValueAsString(identity);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
