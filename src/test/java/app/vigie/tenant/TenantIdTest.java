package app.vigie.tenant;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/**
 * Issue 41, point 10: the tenant ids the directory refuses, with a reason naming 'id': those a lookup could confuse
 * with another (spaces around, {@code provider} the provider's own register) and those that are no file name
 * ({@code .}, {@code ..}), wherever an entry comes from (the API, the form, a file, an import: all check with
 * {@link TenantValidator}).
 */
class TenantIdTest {

    private static Tenant tenant(String id) {
        return new Tenant(id, "Acme SA", "FR", null, null, null, null, null, null, null, null, null);
    }

    @Test
    void idsThatReadAsAnotherOrAsNoFileAreRefused() {
        for (String id : List.of("acme ", " acme", "acme\u00a0", "\u2003acme", " ", ".", "..", "provider")) {
            assertThat(TenantValidator.problems(tenant(id))).as("tenant id '" + id + "'")
                    .anySatisfy(p -> assertThat(p).startsWith("'id'"));
        }
    }

    @Test
    void anImportRefusesThemWithItsLine() {
        for (String file : List.of("t.csv", "t.yaml")) {
            String text = file.endsWith(".csv") ? "id,legal_name,country\nacme ,Acme SA,FR\n..,Dots SA,FR\n"
                    : "tenants:\n  - id: 'acme '\n    legal_name: Acme SA\n    country: FR\n"
                            + "  - id: '..'\n    legal_name: Dots SA\n    country: FR\n";
            List<TenantFile.Entry> read = TenantFile.read(file, text, id -> Optional.empty());
            assertThat(read).as(file).hasSize(2).allSatisfy(e -> assertThat(e.problems()).as(file + " line " + e.line())
                    .anySatisfy(p -> assertThat(p).startsWith("'id'")));
        }
    }

    @Test
    void ordinaryIdsStayValid() {
        for (String id : List.of("acme", "Acme", "acme corp", "a.b", "...", "provider-eu", "my provider", "é")) {
            assertThat(TenantValidator.problems(tenant(id))).as("tenant id '" + id + "'").isEmpty();
        }
    }
}
