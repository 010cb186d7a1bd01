"""The lab's glossary: one short definition per term, the one source every page's glossary shows."""

from __future__ import annotations

__all__ = ["TERMS"]

#: term -> definition, for a student who knows probability but not differential privacy.
TERMS: dict[str, str] = {
    "neighbouring datasets": "Two datasets X ∼ X′ that differ in one person's data: one row replaced (replace-one), "
                             "or one row added or removed (add/remove-one). Each page says which.",
    "ε (epsilon)": "The privacy budget: one person's data change the probability of any outcome by at most a factor "
                   "e^ε. Smaller ε, more privacy, more noise.",
    "δ (delta)": "A small probability with which the ε promise may fail; δ = 0 is pure DP. Choose it much smaller than "
                 "1/n.",
    "differential privacy (DP)": "A randomised algorithm M is (ε, δ)-DP if Pr[M(X) ∈ S] ≤ e^ε Pr[M(X′) ∈ S] + δ for "
                                 "all neighbouring X, X′ and every set of outputs S.",
    "sensitivity (Δ)": "The most a statistic can change between neighbouring datasets; noise is scaled to it "
                       "(ℓ₁ for Laplace noise, ℓ₂ for Gaussian noise).",
    "Laplace mechanism": "Release f(X) plus Laplace noise of scale Δ/ε: ε-DP.",
    "Gaussian mechanism": "Release f(X) plus Gaussian noise with a standard deviation set by Δ, ε and δ: (ε, δ)-DP.",
    "exponential mechanism": "Choose a candidate h with probability proportional to exp(ε·score(h) / 2Δ): ε-DP "
                             "selection.",
    "composition": "Running several DP releases on the same data adds up their ε's (basic composition); advanced "
                   "composition and zCDP give tighter totals when δ > 0 is allowed.",
    "zCDP (ρ)": "Zero-concentrated DP, another accounting of privacy loss with one parameter ρ; the Gaussian "
                "mechanism is ρ-zCDP with ρ = Δ²/(2σ²), and ρ-zCDP implies (ρ + 2√(ρ ln(1/δ)), δ)-DP.",
    "post-processing": "Anything computed from a DP release alone is just as private: privacy cannot be lost by "
                       "further computation.",
    "clipping": "Moving each value into a window [a, b] (values outside go to its edge), which bounds the "
                "sensitivity; it biases the mean when the data reach beyond the window.",
    "truncation": "Dropping the values outside a set (instead of moving them to its edge); the mean of what remains "
                  "is biased too, and a truncated model can take that bias back.",
    "total variation (TV)": "The distance between two distributions: the largest difference in the probability they "
                            "give to any event (0 = identical, 1 = disjoint).",
    "Scheffé set": "For two candidate distributions, the set of points where the first has the larger density; a "
                   "Scheffé contest compares how much of the data falls in it with what each candidate predicts.",
    "Monte Carlo trials": "Independent repetitions of a simulation; the curves show their median and a 10–90 % band.",
    "audit": "A statistical test of a privacy claim from a mechanism's outputs: it gives a lower bound on ε, never a "
             "proof of privacy.",
    "k (the letter)": "Counts one thing per page, as its papers write it: composed releases (pure vs approximate DP), "
                      "candidates (exponential mechanism), the order of the bounded moment E|X − μ|^k (truncation), "
                      "hypotheses (tournament). The page's control says which.",
}
