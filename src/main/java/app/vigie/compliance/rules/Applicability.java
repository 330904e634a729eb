package app.vigie.compliance.rules;

import java.util.List;
import java.util.Set;

/** Which tenants a regime concerns, on their directory entry: country, jurisdictions, sectors. */
public sealed interface Applicability {

    /** Whether it concerns a tenant with these attributes ({@code provider}: the processor's own case). */
    boolean matches(String country, Set<String> jurisdictions, Set<String> sectors, boolean provider);

    record Any(List<Applicability> of) implements Applicability {
        public boolean matches(String country, Set<String> jurisdictions, Set<String> sectors, boolean provider) {
            return of.stream().anyMatch(a -> a.matches(country, jurisdictions, sectors, provider));
        }
    }

    record All(List<Applicability> of) implements Applicability {
        public boolean matches(String country, Set<String> jurisdictions, Set<String> sectors, boolean provider) {
            return of.stream().allMatch(a -> a.matches(country, jurisdictions, sectors, provider));
        }
    }

    record CountryIn(Set<String> codes) implements Applicability {
        public boolean matches(String country, Set<String> jurisdictions, Set<String> sectors, boolean provider) {
            return !provider && country != null && codes.contains(country);
        }
    }

    record JurisdictionIn(Set<String> codes) implements Applicability {
        public boolean matches(String country, Set<String> jurisdictions, Set<String> sectors, boolean provider) {
            return !provider && jurisdictions.stream().anyMatch(codes::contains);
        }
    }

    record SectorIn(Set<String> codes) implements Applicability {
        public boolean matches(String country, Set<String> jurisdictions, Set<String> sectors, boolean provider) {
            return !provider && sectors.stream().anyMatch(codes::contains);
        }
    }

    /** A tenant the condition does not match (NIS2's entities, less the financial ones DORA governs). */
    record Not(Applicability of) implements Applicability {
        public boolean matches(String country, Set<String> jurisdictions, Set<String> sectors, boolean provider) {
            return !provider && !of.matches(country, jurisdictions, sectors, false);
        }
    }

    /** The processor's own obligations (NIS2), not a tenant's. */
    record Provider() implements Applicability {
        public boolean matches(String country, Set<String> jurisdictions, Set<String> sectors, boolean provider) {
            return provider;
        }
    }
}
