package app.vigie.rootcause.core;

import java.util.List;
import java.util.Optional;

/** The hints of root-causes/, in file order, with the file's {@code version} (its date). */
public record HintCatalogue(String version, List<Hint> hints) {

    public Optional<Hint> hint(String id) {
        return hints.stream().filter(h -> h.id().equals(id)).findFirst();
    }
}
