package app.vigie.tenant;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;


import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.StartupEvent;

import app.vigie.audit.AuditTrail;
import app.vigie.db.Transactions;
import app.vigie.db.UnitOfWork;
import app.vigie.problem.ProblemException;

/** The tenant directory: changes through the API, and the YAML file loaded at start ({@code vigie.tenants.file}). */
@ApplicationScoped
public class TenantService {
    private static final Logger LOG = Logger.getLogger(TenantService.class);

    @Inject
    AgroalDataSource dataSource;

    @Inject
    Instance<DirectoryListener> listeners;

    @Inject
    Instance<ChannelCheck> channelChecks;

    @ConfigProperty(name = "vigie.tenants.file")
    Optional<String> file;

    /** The YAML file: {@code tenants:} then a list of entries. */
    record TenantsFile(List<Tenant> tenants) {
    }

    /** A tenants file that cannot be loaded stops the start, naming the file and the entry. */
    public static class InvalidTenantsFile extends RuntimeException {
        InvalidTenantsFile(String message, Throwable cause) {
            super(message, cause);
        }
    }

    void load(@Observes StartupEvent start) throws SQLException {
        if (file.isEmpty() || file.get().isBlank()) {
            return;
        }
        Path path = Path.of(file.get()).toAbsolutePath();
        List<Tenant> tenants = read(path);
        for (int i = 0; i < tenants.size(); i++) {
            List<String> refused = refusals(tenants.get(i));
            if (!refused.isEmpty()) {
                throw new InvalidTenantsFile("tenants file " + path + ", entry " + (i + 1) + " (id '"
                        + tenants.get(i).id() + "'): " + String.join("; ", refused), null);
            }
        }
        for (Tenant t : tenants) {
            save("file:" + path.getFileName(), t, "file");
        }
        LOG.infof("Loaded %d tenants from %s", tenants.size(), path);
    }

    /** Reads and validates the whole file; nothing is saved when any entry is wrong. */
    public static List<Tenant> read(Path path) {
        TenantsFile parsed;
        try {
            parsed = TenantFile.YAML.readValue(Files.readAllBytes(path), TenantsFile.class);
        } catch (IOException e) {
            throw new InvalidTenantsFile("tenants file " + path + ": " + e.getMessage().lines().findFirst()
                    .orElse("unreadable"), e);
        }
        if (parsed == null || parsed.tenants() == null) {
            throw new InvalidTenantsFile("tenants file " + path + ": expected a list under 'tenants:'", null);
        }
        for (int i = 0; i < parsed.tenants().size(); i++) {
            Tenant t = parsed.tenants().get(i);
            List<String> problems = t == null ? List.of("empty entry") : TenantValidator.problems(t);
            if (!problems.isEmpty()) {
                throw new InvalidTenantsFile("tenants file " + path + ", entry " + (i + 1)
                        + (t == null || t.id() == null ? "" : " (id '" + t.id() + "')") + ": "
                        + String.join("; ", problems), null);
            }
        }
        return parsed.tenants();
    }

    /** The directory, every tenant. */
    @UnitOfWork
    public List<Tenant> list() throws SQLException {
        return TenantEntry.directory();
    }

    /** One tenant, when the directory has it. */
    @UnitOfWork
    public Optional<Tenant> find(String id) throws SQLException {
        return TenantEntry.byId(id);
    }

    /** One tenant; 404 when the directory has none of that id. */
    @UnitOfWork
    public Tenant get(String id) throws SQLException {
        return TenantEntry.byId(id)
                .orElseThrow(() -> new ProblemException(404, "no tenant '" + id + "' in the directory"));
    }

    /**
     * Creates or replaces the entry {@code id} with {@code body} (its id, when given, must be {@code id}), checked;
     * answers the entry as stored.
     */
    @UnitOfWork
    public Tenant put(String actor, String id, Tenant body) throws SQLException {
        if (body == null) {
            throw new ProblemException(400, "a tenant entry is required");
        }
        if (body.id() != null && !body.id().equals(id)) {
            throw new ProblemException(400, "field 'id' (" + body.id() + ") differs from the path (" + id + ")");
        }
        Tenant t = new Tenant(id, body.legalName(), body.country(), body.companyId(), body.dpo(),
                body.alertChannels(), body.alertDelay(), body.jurisdictions(), body.sectors(),
                body.processorIsAgent(), body.mainEstablishment(), body.euRepresentative()).withDefaults();
        List<String> problems = new ArrayList<>(TenantValidator.problems(t));
        problems.addAll(refusals(t));
        if (!problems.isEmpty()) {
            throw new ProblemException(400, String.join("; ", problems));
        }
        save(actor, t, "api");
        return get(id);
    }

    /**
     * Why the entry's alert channels can never be delivered, as alerting judges them (a webhook to a loopback or
     * private address outside the allowed networks, plain http in production): refused when saved, with the reason.
     */
    List<String> refusals(Tenant t) {
        List<String> out = new ArrayList<>();
        List<Tenant.AlertChannel> channels = t.alertChannels() == null ? List.of() : t.alertChannels();
        for (int i = 0; i < channels.size(); i++) {
            for (ChannelCheck check : channelChecks) {
                String where = "'alert_channels[" + i + "]' target: ";
                check.refusal(channels.get(i)).ifPresent(r -> out.add(where + r));
            }
        }
        return out;
    }

    /** Creates or replaces an entry already checked, audited when it changed. */
    @UnitOfWork
    public void save(String actor, Tenant t, String source) throws SQLException {
        write(actor, t, source, Instant.now());
    }

    /**
     * An imported entry: its line in the file, its tenant id, the change it makes (create, update, same, error), the
     * fields it changes (TenantFile.FIELDS), why it cannot be saved.
     */
    public record ImportLine(int line, String id, String change, List<String> fields, List<String> problems) {
    }

    /** The largest file an import reads. */
    public static final int IMPORT_MAX_CHARS = 1_000_000;

    /**
     * What importing a YAML or CSV file would do, line by line: each tenant new, updated or the same as in the
     * directory, or why it cannot be saved. Nothing is saved.
     */
    @UnitOfWork
    public List<ImportLine> preview(String name, String text) throws SQLException {
        checkSize(text);
        return TenantFile.read(name, text, TenantEntry::byId, this::refusals)
                .stream()
                .map(e -> new ImportLine(e.line(), e.tenant() == null ? null : e.tenant().id(),
                        !e.problems().isEmpty() ? "error" : !e.existed() ? "create" : e.changed().isEmpty() ? "same"
                                : "update", e.changed(), e.problems()))
                .toList();
    }

    /**
     * Saves every tenant of a YAML or CSV file in one transaction, each change audited ({@code tenant.create},
     * {@code tenant.update}, source "import"); 400 naming each refused line when any is, and nothing saved.
     * Answers how many entries changed.
     */
    @UnitOfWork
    public int importAll(String actor, String name, String text) throws SQLException {
        checkSize(text);
        List<TenantFile.Entry> entries = TenantFile.read(name, text, TenantEntry::byId, this::refusals);
        List<String> refused = entries.stream().filter(e -> !e.problems().isEmpty())
                .map(e -> "line " + e.line() + ": " + String.join("; ", e.problems())).toList();
        if (!refused.isEmpty()) {
            throw new ProblemException(400, "nothing was imported: " + String.join(" | ", refused));
        }
        if (entries.isEmpty()) {
            throw new ProblemException(400, "the file holds no tenant");
        }
        int changed = 0;
        Instant now = Instant.now();
        for (TenantFile.Entry e : entries) {
            changed += write(actor, e.tenant(), "import", now) ? 1 : 0;
        }
        return changed;
    }

    private static void checkSize(String text) {
        if (text == null || text.isBlank()) {
            throw new ProblemException(400, "choose a YAML or CSV file of tenants");
        }
        if (text.length() > IMPORT_MAX_CHARS) {
            throw tooLarge();
        }
    }

    /** The refusal of a file of tenants longer than {@link #IMPORT_MAX_CHARS}. */
    public static ProblemException tooLarge() {
        return new ProblemException(413, "the file has more than " + IMPORT_MAX_CHARS + " characters: split it");
    }

    /**
     * Creates or replaces an entry in the transaction at hand, audited and told to the listeners when it changed;
     * whether it did.
     */
    private boolean write(String actor, Tenant t, String source, Instant now) throws SQLException {
        Optional<Tenant> before = TenantEntry.put(t, source, now);
        if (before.isEmpty() || !before.get().equals(t)) {
            AuditTrail.record(actor, before.isPresent() ? "tenant.update" : "tenant.create", "tenant:" + t.id(),
                    before.map(TenantEntry::json).orElse(null), TenantEntry.json(t));
            try (Connection c = Transactions.connection(dataSource)) {
                for (DirectoryListener l : listeners) {
                    l.entryWritten(c, before.orElse(null), t, now);
                }
            }
            return true;
        }
        return false;
    }

    @UnitOfWork
    public boolean delete(String actor, String id) throws SQLException {
        Optional<Tenant> before = TenantEntry.byId(id);
        if (before.isEmpty()) {
            return false;
        }
        TenantEntry.remove(id);
        AuditTrail.record(actor, "tenant.delete", "tenant:" + id, TenantEntry.json(before.get()), null);
        return true;
    }
}
