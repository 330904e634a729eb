package app.vigie.audit;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.orm.panache.PanacheRepository;
import io.quarkus.panache.common.Sort;

/** The audit trail's queries. */
@ApplicationScoped
public class AuditEventRepository implements PanacheRepository<AuditEvent> {

    /** The events {@code f} selects, newest first, at most {@code limit}. */
    public List<AuditEvent> find(AuditFilter f, int limit) {
        StringBuilder q = new StringBuilder("1 = 1");
        Map<String, Object> p = new HashMap<>();
        if (f.actor() != null) {
            q.append(" and actor = :actor");
            p.put("actor", f.actor());
        }
        if (f.action() != null) {
            q.append(" and action = :action");
            p.put("action", f.action());
        }
        if (f.target() != null) {
            q.append(" and target like :target escape '\\'");
            p.put("target", AuditEvent.literal(f.target()) + "%");
        }
        if (f.from() != null) {
            q.append(" and at >= :from");
            p.put("from", f.from());
        }
        if (f.to() != null) {
            q.append(" and at < :to");
            p.put("to", f.to());
        }
        if (f.before() != null) {
            q.append(" and id < :before");
            p.put("before", f.before());
        }
        return find(q.toString(), Sort.descending("id"), p).range(0, limit - 1).list();
    }
}
