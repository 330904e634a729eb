package app.vigie.web.pages;

import java.util.List;

import app.vigie.notice.When;
import app.vigie.tenant.TenantService;

/** The dashboard's list pages: the violation register, the tenants directory, the quarantine, the audit trail. */
public final class Lists {
    private Lists() {
    }

    public record RegisterPage(String language, String zone, String user, String register, String incident,
            boolean valid, long entries, String head, Long firstBroken, String reason, List<RegisterLine> lines,
            List<String> registers, String query) {
    }

    public record RegisterLine(long id, String register, String controller, String incidentId, When recordedAt,
            String recordedBy, String nature, long exposedRequests, String severity, String hash) {
    }

    /**
     * The tenants page: the directory, the affected tenants of open incidents it does not have ({@code missing}), and ({@code canImport}: the DPO) an
     * import's preview or outcome ({@code imported} null: none).
     */
    public record TenantsPage(String language, String zone, String user, List<TenantLine> tenants,
            List<String> missing, boolean canImport, Import imported) {
    }

    /**
     * An import: the file ({@code name}, its {@code text} posted back to confirm), each line's change or problems,
     * how many can be saved and how many are refused, the reason it was refused whole ({@code error}), or
     * {@code saved} after it was.
     */
    public record Import(String name, String text, List<TenantService.ImportLine> lines, int valid, int errors,
            String error, boolean saved) {
    }

    public record TenantLine(String id, String legalName, String country, String dpo, String channels,
            String alertDelay, String jurisdictions, String sectors) {
    }

    public record QuarantinePage(String language, String zone, String user, String source, int page, int size,
            long total, List<QuarantineLine> items, boolean hasPrevious, boolean hasNext) {
    }

    public record QuarantineLine(long id, When receivedAt, String source, String sourceName, long position,
            String reason, String raw) {
    }

    public record AuditPage(String language, String zone, String user, String actor, String action, String target,
            String from, String to, List<AuditLine> events, Long older, String query, String error) {
    }

    public record AuditLine(long id, When at, String actor, String action, String target, String before,
            String after) {
    }

    /** The alerts, filtered by a delivery {@code status} and a {@code state} (both blank: all). */
    public record AlertsPage(String language, String zone, String user, String status, String state,
            boolean canRetry, List<AlertLine> alerts) {
    }

    public record AlertLine(long id, String incidentId, String tenant, String phase, When createdAt,
            When acknowledgedAt, boolean escalated, List<DeliveryLine> deliveries) {
    }

    public record DeliveryLine(long id, String channel, String target, String status, int attempts,
            When nextAttemptAt, String lastError, When deliveredAt) {
    }
}
