"""The answer a lesson's question marks right (read by the question tests of several lessons)."""

from dpcore.lessons.questions import Question


def chosen(question: Question) -> str:
    return question.choices[question.answer]
