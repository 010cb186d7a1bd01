"""The lab's glossary: one short definition per term, the one source every page's glossary shows.

Each page's lesson module declares the terms its words use (its ``GLOSSARY`` tuple); :data:`FORMS` says how each term
shows in a page's text, so that a test can find a term a page uses but does not declare, or declares but does not use
(``tests/app/test_plain_words.py``).
"""

from __future__ import annotations

__all__ = ["TERMS", "FORMS"]

#: term -> definition, for a first-year student who knows some probability but not differential privacy; in
#: alphabetical order (a Greek letter sorts by its name).
TERMS: dict[str, str] = {
    "abstain": "In an audit, to make no guess about a canary: an auditor who guesses only where its scores are "
               "surest is right more often, and fewer, surer guesses can give a larger lower bound on ε.",
    "audit": "A statistical test of a privacy claim from a mechanism's outputs: it gives a lower bound on ε, never a "
             "proof of privacy.",
    "bias": "How far an estimate is from the true value on average: E[estimate] − true value. Clipping and "
            "truncation cause bias; zero-mean noise added for privacy does not (it averages out).",
    "binary product distribution": "A distribution over rows of d bits (0 or 1) where bit j is 1 with probability "
                                   "pⱼ, independently of the other bits; the pⱼ are its marginals.",
    "canary": "A record an auditor plants in a mechanism's input, included or not by a coin flip it keeps, to test "
              "from the output whether the record can be detected (a one-run audit plants many at once).",
    "clipping": "Moving each value into a window [a, b] (values outside go to its edge), which bounds the "
                "sensitivity; it biases the mean when the data reach beyond the window.",
    "Clopper–Pearson interval": "An exact confidence interval for a probability estimated from counts (Clopper & "
                                "Pearson 1934): it covers the true probability at least as often as promised.",
    "composition": "Running several DP releases on the same data adds up their ε's (basic composition); advanced "
                   "composition and zCDP give tighter totals when δ > 0 is allowed.",
    "confidence interval": "A range computed from data that contains the true value with a chosen probability "
                           "(e.g. 95 %) over repeated experiments.",
    "δ (delta)": "A small probability with which the ε promise may fail; δ = 0 is pure DP. Choose it much smaller than "
                 "1/n.",
    "differential privacy (DP)": "A randomised algorithm M is (ε, δ)-DP if Pr[M(X) ∈ S] ≤ $e^{\\varepsilon}$ "
                                 "Pr[M(X′) ∈ S] + δ for all neighbouring X, X′ and every set of outputs S.",
    "ε (epsilon)": "The privacy budget: one person's data change the probability of any outcome by at most a factor "
                   "$e^{\\varepsilon}$. Smaller ε, more privacy, more noise.",
    "expected value (E)": "E[Y] is the average of a random quantity Y over its distribution (what the average of "
                          "many independent draws approaches).",
    "exponential mechanism": "Choose a candidate h with probability proportional to exp(ε·score(h) / 2Δ): ε-DP "
                             "selection (McSherry & Talwar 2007).",
    "Gaussian differential privacy (μ-GDP)": "A mechanism is μ-GDP if telling X from X′ by its output is no easier "
                                             "than telling N(0, 1) from N(μ, 1) (Dong, Roth & Su 2022). Gaussian "
                                             "noise is exactly μ-GDP, and k releases compose to √k·μ.",
    "Gaussian mechanism": "Release f(X) plus Gaussian noise with a standard deviation set by Δ, ε and δ: (ε, δ)-DP.",
    "gradient descent": "Finding the minimum of a function by repeatedly stepping against its gradient (its slope); "
                        "private gradient descent adds noise to each gradient it uses.",
    "group privacy": "An ε-DP algorithm protects a group of m people (or one user with m examples) only at "
                     "level m·ε: the promise weakens with the size of the group.",
    "heavy tails": "A distribution has heavy tails when values far from its mean are not rare (its high moments are "
                   "large or infinite); a few such values can move a mean a lot.",
    "hypothesis": "A candidate distribution that might have produced the data; a tournament picks one of k of them.",
    "interference": "In a one-run audit, the other canaries acting as noise on each canary's score when they all "
                    "go into one shared release: it keeps the bound far below the true ε (Keinan, Shenfeld & Ligett "
                    "2025).",
    "k (the letter)": "Counts one thing per page, as its papers write it: composed releases (pure vs approximate DP), "
                      "candidates (exponential mechanism), the order of the bounded moment E|X − μ|ᵏ (truncation), "
                      "hypotheses (tournament), the guesses k₊ and k₋ of a one-run audit (audit studio). The page's "
                      "control says which.",
    "Kullback–Leibler divergence (KL)": "KL(P ‖ Q) = Σ P(x) ln(P(x)/Q(x)): how badly Q stands in for P (0 when "
                                        "equal, not symmetric, infinite where Q gives 0 to what P allows).",
    "ℓ₁ and ℓ₂ norms": "Two ways to measure a vector v of d numbers: ℓ₁ is Σ|vⱼ| (the sum of sizes), ℓ₂ is "
                       "√(Σ vⱼ²) (the straight-line length). Laplace noise is scaled to the ℓ₁ sensitivity, Gaussian "
                       "noise to the ℓ₂ one.",
    "Laplace mechanism": "Release f(X) plus Laplace noise of scale Δ/ε: ε-DP (Dwork, McSherry, Nissim & Smith 2006).",
    "log–log plot": "A plot with both axes on a log scale; a power law y ∝ xᵃ becomes a straight line of slope a.",
    "Lomax (Pareto II)": "A distribution of positive values with one long right tail (like incomes): its k-th moment "
                         "is finite only for k below its shape parameter.",
    "maximum likelihood estimate (MLE)": "The parameter value under which the observed data are most probable.",
    "mean squared error (MSE)": "E[(estimate − true value)²] = bias² + variance; its square root, the root mean "
                                "squared error (RMSE), is in the units of the data.",
    "median": "The middle value: half of the values are below it, half above. Most curves show the median over "
              "the Monte Carlo trials.",
    "membership inference": "An attack that guesses from a release whether one person's data were in the dataset; "
                            "ε bounds how well any such attacker can do.",
    "moment": "The k-th moment of X about its mean μ is E|X − μ|ᵏ; bounding it for some k limits how often X falls "
              "far from μ (larger k, lighter tails).",
    "moment matching": "Estimating a parameter by choosing the value whose model mean (or other moment) equals the "
                       "one measured on the data.",
    "Monte Carlo trials": "Independent repetitions of a simulation; the curves show their median and a 10–90 % band.",
    "neighbouring datasets": "Two datasets X ∼ X′ that differ in one person's data: one row replaced (replace-one), "
                             "or one row added or removed (add/remove-one). Each page says which.",
    "parallel composition": "DP releases computed on disjoint parts of the data (no person in two parts) cost the "
                            "largest of their ε's in total, not the sum.",
    "percentile": "The value below which a given share of the values fall: the 10–90 % band runs from the 10th to "
                  "the 90th percentile of the trials.",
    "permute-and-flip": "A private selection (McKenna & Sheldon 2020): visit the candidates in random order and "
                        "accept each with probability exp(ε(score − best)/2Δ); ε-DP, and its expected score is "
                        "never below the exponential mechanism's.",
    "post-processing": "Anything computed from a DP release alone is just as private: privacy cannot be lost by "
                       "further computation.",
    "privacy profile": "The curve δ(ε): for each ε, the smallest δ for which a mechanism is (ε, δ)-DP. Pure ε-DP "
                       "mechanisms reach δ = 0 at their ε.",
    "pure and approximate DP": "Pure DP is (ε, 0)-DP, a promise that never fails; approximate DP is (ε, δ)-DP with "
                               "δ > 0, which allows Gaussian noise.",
    "report-noisy-max": "A private selection: add independent noise to every candidate's score and release the "
                        "candidate with the largest noisy score.",
    "Scheffé set": "For two candidate distributions, the set of points where the first has the larger density; a "
                   "Scheffé contest compares how much of the data falls in it with what each candidate predicts.",
    "score": "A number the exponential mechanism gives each candidate from the data (higher = better); its "
             "sensitivity Δ is the most one person can change it.",
    "semidefinite program (SDP)": "An optimisation over matrices constrained to be positive semidefinite; "
                                  "solvers approximate its optimum to any precision in polynomial time.",
    "sensitivity (Δ)": "The most a statistic can change between neighbouring datasets; noise is scaled to it "
                       "(ℓ₁ for Laplace noise, ℓ₂ for Gaussian noise).",
    "standard deviation (sd)": "The typical distance of a random value from its mean: the square root of its "
                               "variance E[(Y − E[Y])²].",
    "Student's t": "A symmetric bell-shaped distribution with heavier tails than the Gaussian: its k-th moment is "
                   "finite only for k below its degrees of freedom.",
    "survival set": "In truncation, the set S whose points are kept (they 'survive'); points outside S are dropped.",
    "total variation (TV)": "The distance between two distributions: the largest difference in the probability they "
                            "give to any event (0 = identical, 1 = disjoint).",
    "trade-off curve": "For a test that must tell X from X′ by a mechanism's output, the least type II error β "
                       "possible at each type I error α; DP is a floor under this curve.",
    "truncation": "Dropping the values outside a set (instead of moving them to its edge); the mean of what remains "
                  "is biased too, and a truncated model can take that bias back.",
    "two-point law": "A distribution with only two values, a common one and a rare one far away: the law behind "
                     "the lower bound for private means (Kamath, Singhal & Ullman 2020, Claim 3.9).",
    "type I and type II errors": "A test deciding between two hypotheses errs in two ways: type I, rejecting the "
                                 "first when it is true (probability α); type II, keeping it when the second is "
                                 "true (probability β).",
    "user-level privacy": "DP where neighbouring datasets differ in all the examples of one user, not in one "
                          "example.",
    "warm start": "A rough first guess of the answer, from which an algorithm starts (truncated MLE needs the "
                  "warm start within a known distance of the true mean).",
    "zCDP (ρ)": "Zero-concentrated DP, another accounting of privacy loss with one parameter ρ; the Gaussian "
                "mechanism is ρ-zCDP with ρ = Δ²/(2σ²), and ρ-zCDP implies (ρ + 2√(ρ ln(1/δ)), δ)-DP "
                "(Bun & Steinke 2016).",
}

#: term -> regular expressions (case-insensitive) whose match in a page's words means the page uses the term.
FORMS: dict[str, tuple[str, ...]] = {
    "abstain": (r"\babstain",),
    "audit": (r"\baudit",),
    "bias": (r"\bbias(?:ed|es)?\b",),
    "binary product distribution": (r"\bbinary product\b", r"\bproduct distribution"),
    "canary": (r"\bcanar(?:y|ies)\b",),
    "clipping": (r"\bclip(?:s|ped|ping)?\b",),
    "Clopper–Pearson interval": (r"Clopper",),
    "composition": (r"\bcompos(?:e|es|ed|ition)\b",),
    "confidence interval": (r"\bconfidence interval", r"\bconfidence bound"),
    "δ (delta)": (r"(?-i:δ)",),
    "differential privacy (DP)": (r"\bDP\b", r"differential(?:ly)? priva"),
    "ε (epsilon)": (r"(?-i:ε)",),
    "expected value (E)": (r"(?-i:\bE(?:\||\[| clip|_))", r"expected value", r"\\mathbb E"),
    "exponential mechanism": (r"exponential mechanism",),
    "Gaussian differential privacy (μ-GDP)": (r"\bGDP\b", r"Gaussian DP", r"Gaussian differential privacy"),
    "Gaussian mechanism": (r"\bGaussian (?:mechanism|noise)",),
    "gradient descent": (r"gradient descent", r"\bDP-SGD\b"),
    "group privacy": (r"group privacy", r"group-privacy"),
    "heavy tails": (r"heav(?:y|ier)[ -]tail", r"\btails?\b"),
    "hypothesis": (r"\bhypothes[ie]s\b",),
    "interference": (r"\binterfer",),
    "k (the letter)": (r"\bk = ", r"\bk\b"),
    "Kullback–Leibler divergence (KL)": (r"\bKL\b", r"Kullback"),
    "Laplace mechanism": (r"\bLaplace\b",),
    "ℓ₁ and ℓ₂ norms": (r"ℓ[₁₂12]",),
    "log–log plot": (r"log[–-]log",),
    "Lomax (Pareto II)": (r"\bLomax\b",),
    "maximum likelihood estimate (MLE)": (r"\bMLE\b", r"maximum likelihood"),
    "mean squared error (MSE)": (r"\bR?MSE\b", r"mean squared error"),
    "median": (r"\bmedian\b",),
    "membership inference": (r"membership", r"\bin the data\b"),
    "moment": (r"\bmoment\b(?! matching)", r"\bmoments\b"),
    "moment matching": (r"moment matching",),
    "Monte Carlo trials": (r"Monte Carlo",),
    "neighbouring datasets": (r"\bneighbou?r",),
    "parallel composition": (r"parallel composition", r"disjoint"),
    "percentile": (r"percentile", r"10–90 %"),
    "permute-and-flip": (r"permute-and-flip",),
    "post-processing": (r"post-processing",),
    "privacy profile": (r"privacy profile",),
    "pure and approximate DP": (r"\bpure\b", r"\bapproximate DP\b"),
    "report-noisy-max": (r"report-noisy-max",),
    "Scheffé set": (r"Scheffé",),
    "score": (r"\bscores?\b",),
    "semidefinite program (SDP)": (r"\bSDP\b", r"semidefinite"),
    "sensitivity (Δ)": (r"\bsensitivity\b", r"(?-i:Δ)"),
    "standard deviation (sd)": (r"standard deviation", r"\bsd\b"),
    "Student's t": (r"\bStudent(?:'s)?[- ]t\b",),
    "survival set": (r"survival set",),
    "total variation (TV)": (r"\bTV\b", r"total variation", r"total-variation"),
    "trade-off curve": (r"trade-off curve", r"trade-off function"),
    "truncation": (r"\btruncat",),
    "two-point law": (r"two-point",),
    "type I and type II errors": (r"type[- ]I", r"type[- ]II"),
    "user-level privacy": (r"user-level",),
    "warm start": (r"warm start",),
    "zCDP (ρ)": (r"\bzCDP\b", r"concentrated"),
}
